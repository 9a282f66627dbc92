import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { upsertConnector } from '../../shared/domain/messaging/index.js';
import { newWebhookSecret } from '../../shared/platform/outbound-http/index.js';
import { createCompany, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { createBookingFor } from '../support/messaging.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/*
 * Issue 24 item 3, for the messaging connectors (the platform channel POSTs through the same gate
 * as webhooks: shared/platform/outbound-http gatedPost). Company A's connector never answers (each attempt held up
 * to MESSAGE_TIMEOUT_MS, 25 s here, far longer than B's 5 messages take on a loaded machine); company B's messages, sent after A's 12, must all be completed
 * while A's first attempts still hang: A's target gets at most WEBHOOK_TARGET_CONCURRENCY (2) of
 * the worker's 16 send slots, the rest of A's messages wait back in the queue as `queued` with no
 * attempt used.
 */
const env = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', MESSAGE_TIMEOUT_MS: '25000', MESSAGE_CONCURRENCY: '16', WEBHOOK_TARGET_CONCURRENCY: '2' };

describe.each(['redis', 'postgres'] as const)('messaging connector fairness between targets, queue on %s', { timeout: 90_000 }, (kind) => {
  const t = useWorld({ queue: kind, env });
  let hanging: WebhookReceiver;
  let healthy: WebhookReceiver;
  const a = {} as { company: string; token: string; booking: string };
  const b = {} as { company: string; token: string; booking: string };

  beforeAll(async () => {
    const db = t.tdb.database.db;
    hanging = await startWebhookReceiver(() => 'hang');
    healthy = await startWebhookReceiver(() => 200);
    for (const [side, receiver] of [
      [a, hanging],
      [b, healthy],
    ] as const) {
      side.company = await createCompany(db);
      side.token = (await createToken(db, side.company, ['messaging'])).token;
      side.booking = (await createBookingFor(db, side.company)).bookingUid!;
      await upsertConnector(db, { companyUid: side.company, platform: 'airbnb', url: receiver.url, secret: newWebhookSecret() });
    }
    await t.p.startWorkers(1);
    return async () => {
      await hanging.close();
      await healthy.close();
    };
  });

  const send = async (side: typeof a, n: number) => {
    const uids: string[] = [];
    for (let i = 0; i < n; i++) {
      const res = await t.p.api.post('/api/v1/message-booking-guest', { booking_uid: side.booking, message: `m${i}` }, side.token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      uids.push(res.body.data.message_uid as string);
    }
    return uids;
  };
  const until = async (what: string, cond: () => boolean | Promise<boolean>, ms = 30_000) => {
    const deadline = Date.now() + ms;
    while (!(await cond())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  const statuses = async (uids: string[]) =>
    (await t.tdb.database.db.execute<{ status: string; attempts: number }>(sql`select status, attempts from messages where uid in ${sql.raw(`('${uids.join("','")}')`)} order by uid`)).map((r) => `${r.status}/${r.attempts}`);

  it('completes another company’s messages while one connector hangs, giving the hung target 2 slots, not 16', async () => {
    const hung = await send(a, 12);
    await until('the hung connector holds its first attempts', () => hanging.received.length >= 2);
    const other = await send(b, 5);
    await until('the other company’s 5 messages complete', async () => (await statuses(other)).every((s) => s.startsWith('completed')));
    expect(healthy.received).toHaveLength(5);
    // All of B's completed before any attempt to A ended (each ends only at its 25 s time-out); A's
    // target never had more than its 2 slots, and the others wait queued with no attempt counted.
    expect(hanging.received).toHaveLength(2);
    const mine = await statuses(hung);
    expect(mine.filter((s) => s === 'processing/1')).toHaveLength(2);
    expect(mine.filter((s) => s === 'queued/0')).toHaveLength(10);
    // Cut the hung attempts now: the workers' close would otherwise wait out their time-out.
    await hanging.close();
  });
});
