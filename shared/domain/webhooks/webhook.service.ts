import { randomUUID } from 'node:crypto';
import { enqueueAfterCommit } from '../../infra/queue/producer.js';
import { retryDelayMs } from '../../infra/queue/registry.js';
import { withTimeout } from '../../infra/timeout.js';
import type { ChangeReaders } from '../changes/index.js';
import { BaseService } from '../service.js';
import { fanOutChanges } from './webhook.fanout.js';
import { gatedPost, heldPost, TargetGate, type GateAnswer, type KeptConnections } from '../../platform/outbound-http/index.js';
import { batchFrom, BLOCKED_WAIT_MS, deliverable, perRead, DRAIN_EVENTS, DRAIN_MS, DRAIN_RECORD_BATCH, GATE_WAIT_MS, signedBody, type DeliveryResult } from './webhook.delivery.js';
import { type AttemptRecord, type Delivery, type DeliveryRow, type WebhookRepository } from './webhook.repository.js';
import type { Infra } from '../../infra/infra.js';

export { REQUEST_FINISHED as WEBHOOK_EVENT_TYPE } from '../../platform/outbox/index.js';
export type { DeliveryResult } from './webhook.delivery.js';
/** An app's callback: delivering the events of the outbox, and the operator's settings. */
export class WebhooksService extends BaseService {
  /** Per-target fairness and circuit breaking of this process's deliveries (shared/platform/outbound-http). */
  private readonly gate: TargetGate;

  constructor(
    infra: Infra,
    /** How the fan-out reads the objects of the changes it turns into events (shared/app/change-readers.ts). */
    private readonly readers: ChangeReaders,
    private readonly repo: WebhookRepository,
    private readonly connections?: KeptConnections,
  ) {
    super(infra);
    this.gate = new TargetGate(infra.config.outbound.gate);
  }

  /**
   * One attempt at delivering an event. Idempotent in the sense the queue needs: an event already
   * delivered or failed is left alone, so a duplicate job (or a redelivery after a worker was killed
   * mid-attempt) sends nothing more; a crash between the POST and the record only means the receiver
   * may get the same event_uid twice. `retriesSoFar` is the job's attemptsMade: the next retry waits
   * backoff * 2^retriesSoFar (capped at WEBHOOK_BACKOFF_MAX_MS), and when that would land past the event's maximum age the event is
   * marked failed now instead.
   *
   * An event of an object (object_key set) is sent under the object's lease (webhook_leases), and
   * once it is settled the same job goes on with the object's next pending events, in order, while
   * they succeed (a drain, at most DRAIN_EVENTS events or DRAIN_MS): one job walks a busy object's
   * chain instead of one job per event waiting, deferred, for the one before (issue 37: 13-20
   * events/s). Their own jobs, if they have one, then find them settled and skip. Per-object order holds because only
   * the lease holder sends an object's events and it sends them in seq order. A webhook taking
   * several events per POST (max_events_per_post) gets them in batches of one object's consecutive
   * events: the first batch is this event and the pending ones behind it (tried with it before or
   * not: a failed batch is retried whole, in order, on this job's schedule), the drain's are untried.
   */
  async deliver(eventUid: string, retriesSoFar: number): Promise<DeliveryResult> {
    const found = await this.repo.loadDelivery(this.db, eventUid);
    const early = this.notNow(found, retriesSoFar);
    if (early) {
      // A job run again after its worker died mid-drain finds its event settled: the object's next
      // pending event (which has no job: only the settling queues it) is queued now, not by the sweep.
      if (early.outcome === 'skipped' && found?.event.objectKey) await this.releaseNext(eventUid);
      return early;
    }
    const { appUid, objectKey } = found!.event;
    if (objectKey === null) return this.attempt([found!], retriesSoFar);
    const holder = `${process.pid}:${randomUUID()}`;
    const leaseMs = DRAIN_MS + this.config.webhooks.timeoutMs + 5000;
    if (!(await this.repo.takeLease(this.db, appUid, objectKey, holder, leaseMs))) return this.waitForEarlier();
    let last: string | undefined;
    let result: DeliveryResult;
    // This job's settled attempts, recorded in batches (DRAIN_RECORD_BATCH), the rest with the lease's end.
    const records: AttemptRecord[] = [];
    try {
      // Read again under the lease: the holder before may have settled it meanwhile.
      const again = await this.repo.loadDelivery(this.db, eventUid, holder);
      const late = this.notNow(again, retriesSoFar);
      if (late) return late;
      const url = again!.webhook?.url;
      const per = again!.webhook?.maxEventsPerPost ?? 1;
      // The events behind this one (its batch's and the drain's first), read before the target's
      // slot is taken (the lease keeps other senders off the object): the slot is held for POSTs.
      const want = per - 1 + perRead(per);
      const behind = url === undefined ? [] : await this.repo.pendingOfObject(this.db, appUid, objectKey, again!.event.seq!, want);
      // One slot of the target for this event and the drain after it, one attempt at a time (given
      // back after each POST, it went to the next job waiting for it, and a drain waited each time).
      const slot = url === undefined ? undefined : await this.gate.enterWaiting(TargetGate.keyOf(url), GATE_WAIT_MS);
      if (slot && !slot.ok) return { outcome: 'deferred', until: slot.until, why: slot.why };
      try {
        const batch = per > 1 && deliverable(again!) ? batchFrom([again!, ...behind], 0, url!, true) : [again!];
        result = await this.attempt(batch, retriesSoFar, slot && { slot, records });
        if (result.outcome !== 'delivered' && result.outcome !== 'failed') return result;
        const lastSent = { ...batch[batch.length - 1]!.event, url: url!, per };
        last = slot ? await this.drain(lastSent, slot, records, { rows: behind.slice(batch.length - 1), more: behind.length === want }) : lastSent.uid;
      } finally {
        // Each POST was counted for the target's health as it came (heldPost).
        slot?.release();
      }
    } finally {
      // What is left to record and the lease given back, in one statement; the lease alone if that fails.
      await this.repo.finishDrain(this.db, records, { appUid, objectKey, holder }).catch(async (err: unknown) => {
        await this.repo.dropLease(this.db, appUid, objectKey, holder).catch(() => {});
        throw err;
      });
    }
    // After the commit (repository finishDrain says why); `last` is set once this turn ended normally.
    await this.releaseNext(last);
    return result;
  }

  /** Why an event is not sent now (gone, settled, waiting for an earlier one or its retry delay), if it is not. */
  private notNow(found: Delivery | undefined, retriesSoFar: number): DeliveryResult | undefined {
    if (!found) return { outcome: 'skipped', reason: 'event no longer exists' };
    const { event, lastAttemptAt } = found;
    if (event.status !== 'pending') return { outcome: 'skipped', reason: `event already ${event.status}` };
    // Per-object order: an earlier event of this object still pending (delivering or retrying), or
    // another job draining the object, is waited for; its end promotes this one (releaseNext), this
    // delay is the fallback.
    if (found.blocked) return this.waitForEarlier();
    // An attempt this job did not make (a drain's that failed): its retry delay is kept all the same.
    if (event.attempts > retriesSoFar && lastAttemptAt !== null) {
      const at = new Date(lastAttemptAt).getTime();
      const due = at + retryDelayMs(this.config.webhooks.backoff, event.attempts - 1);
      if ((event.retryFrom === null || at > event.retryFrom.getTime()) && due > Date.now()) return { outcome: 'deferred', until: due, why: 'blocked' };
    }
    return undefined;
  }

  private waitForEarlier = (): DeliveryResult => ({ outcome: 'deferred', until: Date.now() + BLOCKED_WAIT_MS, why: 'blocked' });

  /**
   * The drain: the object's next pending events after `first`, in order, each sent once (alone, or
   * in batches of up to `per`) while they succeed (or fail for good). It stops at the first retry,
   * deferral (busy target, open circuit) or event already tried (its own job keeps its retry
   * schedule), or once a read found fewer than it asked for (the object caught up: what the
   * fan-out adds later is queued by releaseNext). It starts with `start.rows`, read by the caller
   * (`more`: that read was full). Answers the uid of the last event it settled. Its attempts go to
   * `records` (the caller records what is left once the slot is given back).
   */
  private async drain(first: Delivery['event'] & { url: string; per: number }, slot: Extract<GateAnswer, { ok: true }>, records: AttemptRecord[], start: { rows: readonly DeliveryRow[]; more: boolean }): Promise<string> {
    let last = first;
    const until = Date.now() + DRAIN_MS;
    for (let n = 0, next = start.rows, more = start.more; ; ) {
      for (let i = 0; i < next.length && n < DRAIN_EVENTS; ) {
        // Empty: tried already (its own job keeps its retry schedule), or the webhook moved to another target.
        const batch = batchFrom(next, i, first.url, false);
        if (batch.length === 0) return last.uid;
        const result = await this.attempt(batch, 0, { records, slot });
        if (result.outcome !== 'delivered' && result.outcome !== 'failed') return last.uid;
        last = { ...batch[batch.length - 1]!.event, url: first.url, per: first.per };
        n += batch.length;
        i += batch.length;
        if (records.length >= DRAIN_RECORD_BATCH) await this.repo.recordAttempts(this.db, records.splice(0));
        if (Date.now() >= until) return last.uid;
      }
      if (!more || n >= DRAIN_EVENTS) return last.uid;
      const limit = Math.min(perRead(first.per), DRAIN_EVENTS - n);
      next = await this.repo.pendingOfObject(this.db, first.appUid, first.objectKey!, last.seq!, limit);
      more = next.length === limit;
    }
  }

  /**
   * The POST of one event, or of a batch of one object's events in order (the first pending and its
   * turn come), and its record: every event of the batch gets the same attempt, delivered together
   * or retried together (each is failed for good once past its own maximum age). With `drain`, the
   * POST uses its slot of the target, and the records join its batch when it has one (recorded
   * before the drain ends). The outcome is the first event's.
   */
  private async attempt(
    batch: readonly DeliveryRow[],
    retriesSoFar: number,
    drain?: { records?: AttemptRecord[]; slot: Extract<GateAnswer, { ok: true }> },
  ): Promise<DeliveryResult> {
    const { event, webhook } = batch[0]!;
    if (!webhook || !deliverable(batch[0]!)) {
      const error = !webhook ? 'the app has no webhook any more' : 'the request no longer exists';
      await this.repo.recordAttempt(this.db, { eventUid: event.uid, url: webhook?.url ?? '', statusCode: null, error, durationMs: 0, eventStatus: 'failed' });
      return { outcome: 'failed', statusCode: null, error };
    }
    const { body, headers } = signedBody(batch, webhook);
    const started = performance.now();
    // Through the target gate (shared/platform/outbound-http): a busy target or an open circuit
    // defers the delivery, no attempt made or counted.
    const postOpts = { timeoutMs: this.config.webhooks.timeoutMs, allowPrivateTargets: this.config.outbound.allowPrivateTargets, waitMs: GATE_WAIT_MS, connections: this.connections };
    const result = drain ? await heldPost(drain.slot, webhook.url, body, headers, postOpts) : await gatedPost(this.gate, webhook.url, body, headers, postOpts);
    if ('deferred' in result) return { outcome: 'deferred', until: result.until, why: result.why };
    const durationMs = performance.now() - started;
    const nextRetryAt = Date.now() + retryDelayMs(this.config.webhooks.backoff, retriesSoFar);
    const outcomeOf = (e: DeliveryRow['event']) =>
      result.ok ? 'delivered' : nextRetryAt > (e.retryFrom ?? e.createdAt).getTime() + this.config.webhooks.maxAgeMs ? 'failed' : 'retry';
    const records: AttemptRecord[] = batch.map(({ event: e }) => {
      const outcome = outcomeOf(e);
      return { eventUid: e.uid, url: webhook.url, statusCode: result.statusCode, error: result.ok ? null : result.error, durationMs, eventStatus: outcome === 'retry' ? 'pending' : outcome };
    });
    if (drain?.records) drain.records.push(...records);
    else await this.repo.recordAttempts(this.db, records);
    return { outcome: outcomeOf(event), statusCode: result.statusCode, error: result.ok ? null : result.error };
  }

  /**
   * `next`, the event that waited behind another of its object, may go now: its deferred job is
   * promoted (run at once) instead of waiting out its delay, and it is given one when it has none
   * (the fan-out queues only the events whose turn it is). Best effort: the delay, and for an event
   * without a job the re-enqueue sweep, is the fallback. releaseNext: the one behind `eventUid`.
   */
  private async releaseNext(eventUid: string | undefined): Promise<void> {
    if (eventUid !== undefined) await this.promote(await this.repo.nextOfObject(this.db, eventUid));
  }

  private async promote(next: string | undefined): Promise<void> {
    if (next === undefined) return;
    try {
      const job = await withTimeout(this.infra.jobs.webhooks.queue.getJob(next), 2000, 'getJob');
      if (!job) {
        await this.infra.jobs.webhooks.enqueue([next]);
        return;
      }
      // A job still running may be about to park itself (it read the event as blocked just before
      // this one settled): asked again a moment later, so it does not wait out BLOCKED_WAIT_MS.
      for (let tries = 0; job && tries < 5; tries++) {
        const state = await withTimeout(job.getState(), 2000, 'getState');
        if (state === 'delayed') await withTimeout(job.promote(), 2000, 'promote');
        if (state === 'completed' || state === 'failed') await this.requeue([next]);
        if (state !== 'active') return;
        await new Promise((r) => setTimeout(r, 20));
      }
    } catch (err) {
      this.logger.debug({ err, eventUid: next }, 'next event of the object not promoted; it runs after its delay');
    }
  }

  /**
   * The sweep's claim (worker/reenqueue-sweep.ts): pending events it has not seen for
   * REENQUEUE_AFTER_MS, in one statement; the queue is asked about them outside any transaction.
   */
  claimStale(limit: number): Promise<string[]> {
    return this.repo.claimStalePendingEvents(this.db, this.config.queue.reenqueueAfterMs, limit);
  }

  /**
   * Gives these pending events a delivery job unless the queue holds one that will run: a job the
   * queue finished is removed and added again (jobId = event uid). Answers the uids added. Used by
   * the sweep and by redeliver-webhook-events.
   */
  async requeue(uids: readonly string[]): Promise<string[]> {
    const jobs = this.infra.jobs.webhooks;
    const toAdd: string[] = [];
    for (const uid of uids) {
      const state = await jobs.jobState(uid);
      if (state === 'unknown') toAdd.push(uid);
      else if (state === 'completed' || state === 'failed') {
        await jobs.remove(uid);
        toAdd.push(uid);
      }
    }
    await jobs.enqueue(toAdd);
    return toAdd;
  }

  /**
   * Queues the delivery of events just committed (jobId = event uid: adding one twice is a
   * no-op). A queue that cannot take them now is left to the sweep: the events are durable.
   */
  async queue(eventUids: readonly (string | undefined)[]): Promise<void> {
    const uids = eventUids.filter((u): u is string => u !== undefined);
    await enqueueAfterCommit(this.logger, 'webhook events', uids, (u) => this.infra.jobs.webhooks.enqueue(u));
  }

  /**
   * The fan-out (webhook.fanout.ts): feed positions not yet looked at become events of the apps
   * subscribed to them, whose deliveries are then queued (the sweep queues them if the queue is
   * away). Stamps first, so every committed change has its position. Answers the events made.
   */
  async fanOut(stamp: () => Promise<unknown>, batch = 1000, maxBatches = 20): Promise<number> {
    await stamp();
    let made = 0;
    for (let i = 0; i < maxBatches; i++) {
      const { eventUids, positions } = await fanOutChanges(this.db, this.readers, batch);
      made += eventUids.length;
      // Only the events whose turn it is get a job now (read after the commit): the settling of the
      // one before queues the next (releaseNext), the sweep being the fallback. A busy object's
      // thousand events were a thousand jobs, all but one parked and woken again and again.
      await this.queue(eventUids.length > 0 ? await this.repo.headsOf(this.db, eventUids) : []);
      if (positions < batch) break;
    }
    return made;
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
