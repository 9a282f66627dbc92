import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { newWebhookSecret } from '../../shared/platform/outbound-http/index.js';
import { setWebhook } from '../../shared/domain/webhooks/index.js';
import { createCompany, createProperty, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { futureDates } from '../support/pipeline.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/*
 * Issue 24 item 3: one app's receiver that never answers may not delay another app's events. App A
 * gets 30 events to a receiver that hangs (each attempt held up to WEBHOOK_TIMEOUT_MS, 25 s here: far longer than B's events take on a loaded machine);
 * app B's 5 events, queued after them, must all arrive while A's first attempts are still hanging:
 * at most WEBHOOK_TARGET_CONCURRENCY (2) of the worker's 16 delivery slots go to A's target, the
 * rest of A's events wait in the queue (deferred, no attempt used), so B's are taken at once.
 */
const env = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_TIMEOUT_MS: '25000', WEBHOOK_CONCURRENCY: '16', WEBHOOK_TARGET_CONCURRENCY: '2' };

describe.each(['redis', 'postgres'] as const)('webhook fairness between targets, queue on %s', { timeout: 90_000 }, (kind) => {
  const t = useWorld({ queue: kind, env });
  let company: string;
  let property: string;
  let hanging: WebhookReceiver;
  let healthy: WebhookReceiver;

  beforeAll(async () => {
    await t.p.startWorkers(1);
    company = await createCompany(t.tdb.database.db);
    property = await createProperty(t.tdb.database.db, company);
    hanging = await startWebhookReceiver(() => 'hang');
    healthy = await startWebhookReceiver(() => 200);
    return async () => {
      await hanging.close();
      await healthy.close();
    };
  });

  const appTo = async (receiver: WebhookReceiver) => {
    const issued = await createToken(t.tdb.database.db, company, ['calendar-control']);
    await setWebhook(t.tdb.database.db, company, issued.appUid, receiver.url, newWebhookSecret());
    return issued;
  };
  const submit = async (token: string, n: number) => {
    for (let i = 0; i < n; i++) {
      const res = await t.p.api.post('/api/v1/set-calendar-batch', { property_uid: property, days: futureDates(1).map((date) => ({ date, notes: `n${i}` })) }, token);
      expect(res.status).toBe(200);
    }
  };
  const until = async (what: string, cond: () => boolean | Promise<boolean>, ms = 30_000) => {
    const deadline = Date.now() + ms;
    while (!(await cond())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  const attemptsTo = async (appUid: string) =>
    ((await t.tdb.database.db.execute(sql`
      select count(*)::int as n from webhook_deliveries d join webhook_events e on e.uid = d.event_uid where e.app_uid = ${appUid}`)) as unknown as Array<{ n: number }>)[0]!.n;

  it('delivers another app’s events while one app’s receiver hangs, giving the hung target 2 slots, not 16', async () => {
    const a = await appTo(hanging);
    const b = await appTo(healthy);
    await submit(a.token, 30);
    await until('the hung receiver holds its first attempts', () => hanging.received.length >= 2);
    await submit(b.token, 5);
    await until('the other app’s 5 events arrive', () => healthy.received.length >= 5);
    // All of B's arrived before any attempt to A ended (each ends only at its 25 s time-out), and A's
    // target never had more than its 2 slots.
    expect(await attemptsTo(a.appUid)).toBe(0);
    expect(hanging.received.length).toBe(2);
    // Cut the hung attempts now: the workers' close would otherwise wait out their time-out.
    await hanging.close();
  });
});
