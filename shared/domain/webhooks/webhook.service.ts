import { toStatusView } from '../calendar/index.js';
import { retryDelayMs } from '../../infra/queue/registry.js';
import { utcDateTime } from '../../infra/time.js';
import { BaseService } from '../service.js';
import { postWebhook } from './webhook.http.js';
import { TargetGate } from './target-gate.js';
import { webhookRepository, type WebhookRepository } from './webhook.repository.js';
import type { Infra } from '../../infra/infra.js';
import { signatureHeader } from './webhook.signature.js';

export const WEBHOOK_EVENT_TYPE = 'calendar.request.finished';

export type DeliveryResult =
  | { outcome: 'delivered' | 'failed' | 'retry'; statusCode: number | null; error: string | null }
  | { outcome: 'skipped'; reason: string }
  /** The target is busy or its circuit open: try again at `until`, no attempt made or counted. */
  | { outcome: 'deferred'; until: number; why: 'busy' | 'open' };

/** An app's callback: delivering the events of the outbox, and the operator's settings. */
export class WebhooksService extends BaseService {
  /** Per-target fairness and circuit breaking of this process's deliveries (target-gate.ts). */
  private readonly gate: TargetGate;

  constructor(
    infra: Infra,
    private readonly repo: WebhookRepository = webhookRepository,
  ) {
    super(infra);
    this.gate = new TargetGate(infra.config.webhooks.gate);
  }

  /**
   * One attempt at delivering an event. Idempotent in the sense the queue needs: an event already
   * delivered or failed is left alone, so a duplicate job (or a redelivery after a worker was killed
   * mid-attempt) sends nothing more; a crash between the POST and the record only means the receiver
   * may get the same event_uid twice. `retriesSoFar` is the job's attemptsMade: the next retry waits
   * backoff * 2^retriesSoFar (capped at WEBHOOK_BACKOFF_MAX_MS), and when that would land past the event's maximum age the event is
   * marked failed now instead.
   */
  async deliver(eventUid: string, retriesSoFar: number): Promise<DeliveryResult> {
    const found = await this.repo.loadDelivery(this.db, eventUid);
    if (!found) return { outcome: 'skipped', reason: 'event no longer exists' };
    const { event, webhook, request } = found;
    if (event.status !== 'pending') return { outcome: 'skipped', reason: `event already ${event.status}` };
    if (!webhook || !request) {
      const error = !webhook ? 'the app has no webhook any more' : 'the request no longer exists';
      await this.repo.recordAttempt(this.db, { eventUid, url: webhook?.url ?? '', statusCode: null, error, durationMs: 0, eventStatus: 'failed' });
      return { outcome: 'failed', statusCode: null, error };
    }
    // Duplicates carry the same event_uid and created_dttm; `data` is the request's final status,
    // which no longer changes.
    const body = JSON.stringify({
      event_uid: event.uid,
      type: WEBHOOK_EVENT_TYPE,
      created_dttm: utcDateTime(event.createdAt),
      data: toStatusView(request, false),
    });
    const headers = {
      'Content-Type': 'application/json',
      'X-Webhook-Id': event.uid,
      'X-Webhook-Signature': signatureHeader(webhook.secret, body),
    };
    const entry = this.gate.enter(TargetGate.keyOf(webhook.url));
    if (!entry.ok) return { outcome: 'deferred', until: entry.until, why: entry.why };
    const started = performance.now();
    let result: Awaited<ReturnType<typeof postWebhook>>;
    try {
      result = await postWebhook(webhook.url, body, headers, {
        timeoutMs: this.config.webhooks.timeoutMs,
        allowPrivateTargets: this.config.webhooks.allowPrivateTargets,
      });
    } catch (err) {
      entry.release(false);
      throw err;
    }
    // The gate counts the target's health: no answer, a 5xx, 408 or 429 is a failing target; any
    // other answer (a 4xx included) shows it up and answering.
    const code = result.statusCode;
    entry.release(result.ok || (code !== null && code < 500 && code !== 408 && code !== 429));
    const durationMs = performance.now() - started;
    const nextRetryAt = Date.now() + retryDelayMs(this.config.webhooks.backoff, retriesSoFar);
    const expired = nextRetryAt > event.createdAt.getTime() + this.config.webhooks.maxAgeMs;
    const outcome = result.ok ? 'delivered' : expired ? 'failed' : 'retry';
    await this.repo.recordAttempt(this.db, {
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
  async reenqueue(limit = 500): Promise<{ examined: number; readded: number }> {
    const jobs = this.infra.jobs.webhooks;
    const stale = await this.repo.claimStalePendingEvents(this.db, this.config.queue.reenqueueAfterMs, limit);
    const toAdd: string[] = [];
    for (const uid of stale) {
      const state = await jobs.jobState(uid);
      if (state === 'unknown') toAdd.push(uid);
      else if (state === 'completed' || state === 'failed') {
        await jobs.remove(uid);
        toAdd.push(uid);
      }
    }
    await jobs.enqueue(toAdd);
    if (toAdd.length > 0) this.logger.info({ count: toAdd.length }, 're-enqueued webhook events');
    return { examined: stale.length, readded: toAdd.length };
  }

  /**
   * Queues the delivery of events just committed (jobId = event uid: adding one twice is a
   * no-op). A queue that cannot take them now is left to the sweep: the events are durable.
   */
  async queue(eventUids: readonly (string | undefined)[]): Promise<void> {
    const uids = eventUids.filter((u): u is string => u !== undefined);
    if (uids.length === 0) return;
    await this.infra.jobs.webhooks.enqueue(uids).catch((err: unknown) => this.logger.warn({ err, eventUids: uids }, 'webhook job not queued; the sweep will add it'));
  }

  /** The operator's `webhook set`: the app's callback URL and a new signing secret. */
  set(companyUid: string, appUid: string, url: string, secret: string): Promise<void> {
    return this.repo.setWebhook(this.db, companyUid, appUid, url, secret);
  }

  find(companyUid: string, appUid: string) {
    return this.repo.findWebhook(this.db, companyUid, appUid);
  }

  remove(companyUid: string, appUid: string): Promise<boolean> {
    return this.repo.removeWebhook(this.db, companyUid, appUid);
  }

  deliveries(companyUid: string, appUid: string, limit: number) {
    return this.repo.listDeliveries(this.db, companyUid, appUid, limit);
  }
}
