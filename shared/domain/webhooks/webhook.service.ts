import { toStatusView } from '../calendar/calendar.service.js';
import type { Config } from '../../infra/config.js';
import type { Db } from '../../infra/db/client.js';
import type { Logger } from '../../infra/logger.js';
import type { WebhookJobs } from '../../infra/queue/webhook-jobs.js';
import { postWebhook } from './webhook.http.js';
import { claimStalePendingEvents, loadDelivery, recordAttempt } from './webhook.repository.js';
import { signatureHeader } from './webhook.signature.js';

export interface WebhookDeps {
  db: Db;
  config: Config;
  logger: Logger;
  webhookJobs: WebhookJobs;
}

export const WEBHOOK_EVENT_TYPE = 'calendar.request.finished';

const utc = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

export type DeliveryResult =
  | { outcome: 'delivered' | 'failed' | 'retry'; statusCode: number | null; error: string | null }
  | { outcome: 'skipped'; reason: string };

/**
 * One attempt at delivering an event. Idempotent in the sense the queue needs: an event already
 * delivered or failed is left alone, so a duplicate job (or a redelivery after a worker was killed
 * mid-attempt) sends nothing more; a crash between the POST and the record only means the receiver
 * may get the same event_uid twice. `retriesSoFar` is the job's attemptsMade: the next retry waits
 * backoff * 2^retriesSoFar, and when that would land past the event's maximum age the event is
 * marked failed now instead.
 */
export async function deliverWebhookEvent(deps: Pick<WebhookDeps, 'db' | 'config'>, eventUid: string, retriesSoFar: number): Promise<DeliveryResult> {
  const found = await loadDelivery(deps.db, eventUid);
  if (!found) return { outcome: 'skipped', reason: 'event no longer exists' };
  const { event, webhook, request } = found;
  if (event.status !== 'pending') return { outcome: 'skipped', reason: `event already ${event.status}` };
  if (!webhook || !request) {
    const error = !webhook ? 'the app has no webhook any more' : 'the request no longer exists';
    await recordAttempt(deps.db, { eventUid, url: webhook?.url ?? '', statusCode: null, error, durationMs: 0, eventStatus: 'failed' });
    return { outcome: 'failed', statusCode: null, error };
  }
  // Duplicates carry the same event_uid and created_dttm; `data` is the request's final status,
  // which no longer changes.
  const body = JSON.stringify({
    event_uid: event.uid,
    type: WEBHOOK_EVENT_TYPE,
    created_dttm: utc(event.createdAt),
    data: toStatusView(request, false),
  });
  const headers = {
    'Content-Type': 'application/json',
    'X-Webhook-Id': event.uid,
    'X-Webhook-Signature': signatureHeader(webhook.secret, body),
  };
  const started = performance.now();
  const result = await postWebhook(webhook.url, body, headers, {
    timeoutMs: deps.config.webhooks.timeoutMs,
    allowPrivateTargets: deps.config.webhooks.allowPrivateTargets,
  });
  const durationMs = performance.now() - started;
  const nextRetryAt = Date.now() + deps.config.webhooks.backoffMs * 2 ** retriesSoFar;
  const expired = nextRetryAt > event.createdAt.getTime() + deps.config.webhooks.maxAgeMs;
  const outcome = result.ok ? 'delivered' : expired ? 'failed' : 'retry';
  await recordAttempt(deps.db, {
    eventUid,
    url: webhook.url,
    statusCode: result.statusCode,
    error: result.ok ? null : result.error,
    durationMs,
    eventStatus: outcome === 'retry' ? 'pending' : outcome,
  });
  return { outcome, statusCode: result.statusCode, error: result.ok ? null : result.error };
}

/**
 * The webhook half of the re-enqueue sweep (it survives the loss of the queue, so it is not itself
 * a queue job): pending events the sweep has not seen for REENQUEUE_AFTER_MS get a job again unless
 * the queue still holds one that will run. jobId = event uid, so a duplicate add is a no-op; a job
 * the queue finished while the event stayed pending (the outcome could not be recorded) is removed
 * and added again. Events are claimed in one statement and the queue is asked outside any
 * transaction: no Postgres transaction stays open across Redis calls (or a Postgres restart).
 */
export async function reenqueueWebhookEvents(deps: WebhookDeps, limit = 500): Promise<{ examined: number; readded: number }> {
  const stale = await claimStalePendingEvents(deps.db, deps.config.queue.reenqueueAfterMs, limit);
  const toAdd: string[] = [];
  for (const uid of stale) {
    const state = await deps.webhookJobs.jobState(uid);
    if (state === 'unknown') toAdd.push(uid);
    else if (state === 'completed' || state === 'failed') {
      await deps.webhookJobs.remove(uid);
      toAdd.push(uid);
    }
  }
  await deps.webhookJobs.enqueue(toAdd);
  if (toAdd.length > 0) deps.logger.info({ count: toAdd.length }, 're-enqueued webhook events');
  return { examined: stale.length, readded: toAdd.length };
}
