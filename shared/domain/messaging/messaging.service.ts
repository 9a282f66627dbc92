import { attemptsToSpan } from '../../infra/queue/registry.js';
import type { Executor } from '../../infra/db/client.js';
import type { Infra } from '../../infra/infra.js';
import { notFound, shown } from '../../infra/errors.js';
import { PAGE_SIZE } from '../../infra/http/wire.js';
import { createRequestWaits, MESSAGE_FINISHED_CHANNEL, type RequestWaits } from '../../platform/long-poll/index.js';
import type { TokenCheck } from '../auth/index.js';
import { recordChanges } from '../changes/index.js';
import { idempotent } from '../../platform/idempotency/index.js';
import { BaseService } from '../service.js';
import type { MessagingRepository } from './messaging.repository.js';
import { newWebhookSecret, type KeptConnections } from '../../platform/outbound-http/index.js';
import { createChannels, type Channels, type SendOutcome } from './messaging.channels.js';
import type { Outgoing } from './messages.repository.js';
import { appendInbound, inboundSigners, type InboundMessageAnswer, type InboundMessageBody } from './messaging.inbound.js';
import type { GetThreadsQuery, MessageBookingGuestAnswer, MessageBookingGuestBody, MessageStatusView, ThreadsPage } from './messaging.schema.js';
import { threadFilterOf, threadsPage } from './messaging.wire.js';
import { groupCommit } from '../../infra/db/group-commit.js';

export const unknownThread = (threadId: number) => notFound('thread_id', `Unknown thread_id ${threadId}`);
export const unknownBooking = (bookingUid: string) => notFound('booking_uid', `Unknown booking_uid ${shown(bookingUid)}`);

/** What one send attempt did, for the worker: `retry` asks the queue to run it again later. */
export type DeliverResult =
  | { outcome: 'completed' }
  | { outcome: 'error'; error: string }
  | { outcome: 'retry'; error: string }
  | { outcome: 'skipped'; reason: string }
  /** The connector is busy or its circuit open: back to `queued`, to run again at `until` (no attempt used). */
  | { outcome: 'deferred'; until: number };

/**
 * Messaging (docs/api.md "Messaging"): threads read back, messages to guests accepted durably and
 * sent by the send-message job, statuses (with long-poll), connectors.
 */
export class MessagingService extends BaseService {
  /** Long-poll waiters of message-status: the calendar's hub, on the messages' NOTIFY channel. */
  readonly waits: RequestWaits;
  private channels: Channels | undefined;
  private readonly connections: KeptConnections | undefined;
  private markSent: ((uid: string) => Promise<boolean>) | undefined;

  constructor(
    infra: Infra,
    private readonly repo: MessagingRepository,
    opts: { safetyRecheckMs?: number; connections?: KeptConnections } = {},
  ) {
    super(infra);
    this.connections = opts.connections;
    this.waits = createRequestWaits(infra.database.sql, MESSAGE_FINISHED_CHANNEL, (company, uids) => this.repo.findFinishedMessageUids(this.db, company, uids), infra.logger, infra.metrics.longPollWaiters, opts);
  }

  /** GET /get-threads: a page of 25 threads with every message of each, newest first. */
  async listThreads(companyUid: string, q: GetThreadsQuery): Promise<ThreadsPage> {
    const rows = await this.repo.listThreads(this.db, companyUid, threadFilterOf(q), q.page);
    const msgs = await this.repo.messagesOfThreads(this.db, companyUid, rows.slice(0, PAGE_SIZE).map((t) => t.id));
    return threadsPage(rows, msgs, q.page);
  }

  /**
   * POST /message-booking-guest: the message is stored `queued` in its thread (thread_id wins over
   * booking_uid; a booking's first message opens its thread) and committed; the commit wakes the
   * workers' message pumps, which claim it from Postgres. No queue is asked on the way: a queue
   * that cannot be reached does not slow or fail the answer.
   * A thread that exists takes the message in one statement (appendOutbound); otherwise the thread
   * is opened (or the answer is a 404) in a transaction. `by.check`: the token came from the cache
   * (auth/token-check.ts), and the message is stored only while it is live.
   */
  async send(companyUid: string, body: MessageBookingGuestBody, by: { tokenUid: string; appUid?: string; check?: TokenCheck | undefined }, idempotencyKey?: string): Promise<MessageBookingGuestAnswer> {
    const key = idempotencyKey === undefined ? undefined : { tokenUid: by.tokenUid, companyUid, key: idempotencyKey, body };
    const message = { channel: body.channel, text: body.message, appUid: by.appUid };
    const to = body.thread_id !== undefined ? { threadId: body.thread_id } : { bookingUid: body.booking_uid as string };
    const opening = async (tx: Executor) => {
      await this.repo.confirmLiveToken(tx, by.check);
      const threadId = await this.resolveThread(tx, companyUid, body);
      const { uid } = await this.repo.insertMessage(tx, companyUid, threadId, { direction: 'outbound', ...message });
      // The change feed, in the transaction that makes the change (after the write: see recordChange).
      await recordChanges(tx, [
        { company: companyUid, kind: 'thread', objectUid: String(threadId) },
        { company: companyUid, kind: 'message', objectUid: uid, event: 'message.status' },
      ]);
      return uid;
    };
    // With a key, idempotent() opens the transaction and both tries run in it; without one, the
    // one statement runs on the pool (settled by its row if its answer is lost: settled-write.ts),
    // and only a thread to open takes a transaction.
    const outcome = await idempotent(this.db, this.config.idempotency.ttlHours, key, async (ex) => {
      const uid = (await this.repo.appendOutbound(ex, companyUid, to, message, by.check, key ? undefined : this.db)) ?? (await (key ? opening(ex) : this.db.transaction(opening)));
      return { data: { message_uid: uid } };
    });
    // No job is queued here: the insert's commit notifies the workers' message pumps
    // (drizzle/0032), which claim it from Postgres (worker/message-pump.ts); the sweep covers a
    // message no pump took.
    return outcome.answer;
  }

  private async resolveThread(tx: Executor, companyUid: string, body: MessageBookingGuestBody): Promise<number> {
    if (body.thread_id !== undefined) {
      const thread = await this.repo.findThread(tx, companyUid, body.thread_id);
      if (!thread) throw unknownThread(body.thread_id);
      return thread.id;
    }
    const bookingUid = body.booking_uid as string;
    // A racing first message of the same booking may have opened the thread after this
    // statement's snapshot: the second look sees it.
    const thread = (await this.repo.threadOfBooking(tx, companyUid, { bookingUid })) ?? (await this.repo.threadOfBooking(tx, companyUid, { bookingUid }));
    if (!thread) throw unknownBooking(bookingUid);
    return thread.id;
  }

  /** GET /message-status, read from Postgres (it survives the loss of the queue). */
  async status(companyUid: string, messageUid: string): Promise<MessageStatusView> {
    const m = await this.repo.findMessage(this.db, companyUid, messageUid);
    if (!m) throw notFound('message_uid', `Unknown message_uid ${shown(messageUid)}`);
    const paused = m.status === 'queued' && (await this.infra.jobs.messages.isPaused().catch(() => false));
    return {
      message_uid: m.uid,
      message_status: paused ? 'paused' : m.status,
      ...(m.status === 'error' ? { message_error: m.messageError ?? 'error' } : {}),
    };
  }

  /** message-status with `wait`: the calendar's long-poll rules (registered before the first read). */
  async waitForStatus(companyUid: string, messageUid: string, waitSeconds: number, signal?: AbortSignal): Promise<MessageStatusView> {
    if (waitSeconds <= 0) return this.status(companyUid, messageUid);
    const wait = this.waits.register(companyUid, [messageUid]);
    try {
      const first = await this.status(companyUid, messageUid);
      const final = first.message_status === 'completed' || first.message_status === 'error';
      if (final) return first;
      const why = await wait.done(waitSeconds * 1000, signal);
      return why === 'aborted' ? first : await this.status(companyUid, messageUid);
    } finally {
      wait.cancel();
    }
  }

  /**
   * Worker: one send attempt of a send-message job. Marks the message processing (counting the
   * attempt) and sends it (sendClaimed). A message already final is left alone (a duplicate job, or
   * a retry after the outcome was recorded). `lastAttempt`: the job's last; the message's own count
   * of attempts (the pump's included) ends it too.
   */
  async deliver(messageUid: string, lastAttempt: boolean): Promise<DeliverResult> {
    const m = await this.repo.markSending(this.db, messageUid);
    if (!m) return { outcome: 'skipped', reason: 'message missing' };
    if (m.status !== 'processing') return { outcome: 'skipped', reason: `already ${m.status}` };
    return this.sendClaimed(m, lastAttempt);
  }

  /** The message pump's claim: up to `limit` messages never started, now `processing` (claimUnsent). */
  claimUnsent(limit: number): Promise<Outgoing[]> {
    return this.repo.claimUnsent(this.db, limit);
  }

  /**
   * Sends a message claimed `processing` through its channel and records the outcome (with its
   * change-feed records, one statement; a sent message with those of the process's other sends
   * that finish meanwhile: groupCommit). A transient failure on the message's last attempt
   * (`lastAttempt`, or its attempts counted reaching what MESSAGE_MAX_AGE_MS spans) ends it in `error`.
   * `onChannelDone`: called once the channel has answered, before the outcome is recorded (the
   * message pump frees the send's slot then).
   */
  async sendClaimed(m: Outgoing, lastAttempt = false, onChannelDone?: () => void): Promise<DeliverResult> {
    this.channels ??= createChannels(this.config, undefined, this.connections);
    const sent: SendOutcome = m.channel === 'email' ? await this.channels.email(m) : await this.channels.platform(m, await this.repo.findConnector(this.db, m.companyUid, m.platformType));
    onChannelDone?.();
    if (sent.kind === 'deferred') {
      await this.repo.markDeferred(this.db, m.uid);
      return { outcome: 'deferred', until: sent.until };
    }
    if (sent.kind === 'sent') {
      // With the other jobs' sent messages that finish meanwhile: one statement and one commit.
      this.markSent ??= groupCommit((uids) => this.repo.markSentMany(this.db, uids));
      await this.markSent(m.uid);
      return { outcome: 'completed' };
    }
    if (sent.kind === 'failed' || lastAttempt || m.attempts >= this.attemptsAllowed) {
      await this.repo.markFinished(this.db, m.uid, { status: 'error', error: sent.error });
      return { outcome: 'error', error: sent.error };
    }
    return { outcome: 'retry', error: sent.error };
  }

  /** Attempts a message gets: as many as span MESSAGE_MAX_AGE_MS with the capped backoff (the send-message job's). */
  get attemptsAllowed(): number {
    return attemptsToSpan(this.config.messaging.backoff, this.config.messaging.maxAgeMs);
  }

  /**
   * The message pump's hand-over to the queue: the send-message job of a message it tried once,
   * to run in `delayMs` (a retry's backoff, a busy connector's deferral). `firstRetryMs`: the job's
   * own first retry delay, so that its retries double on from the pump's (a retry's hand-over).
   */
  handOver(messageUid: string, delayMs: number, firstRetryMs?: number): Promise<void> {
    return this.infra.jobs.messages.later(messageUid, delayMs, firstRetryMs);
  }

  /** Worker: the job failed for good (its attempts ran out, or the queue gave up on it). */
  async fail(messageUid: string, message: string): Promise<void> {
    await this.repo.markFinished(this.db, messageUid, { status: 'error', error: message });
  }

  /** The re-enqueue sweep's claim: messages whose job may be lost. */
  claimStale(limit: number): Promise<{ uid: string; status: string }[]> {
    return this.repo.claimStaleMessages(this.db, this.config.queue.reenqueueAfterMs, limit);
  }

  /** POST /channels/{platform}/inbound: the companies whose connector signed the body (none: refuse it). */
  inboundSigners(platform: string, signature: string | undefined, rawBody: string): Promise<string[]> {
    return inboundSigners(this.db, platform, signature, rawBody);
  }

  /** POST /channels/{platform}/inbound, once signed: the guest's reply appended to the booking's thread. */
  receive(companyUids: readonly string[], body: InboundMessageBody): Promise<InboundMessageAnswer> {
    return appendInbound(this.db, companyUids, body);
  }

  /** CLI `channel set`: registers the company's connector for a platform; answers its new secret. */
  async setConnector(companyUid: string, platform: string, url: string): Promise<string> {
    const secret = newWebhookSecret();
    await this.repo.upsertConnector(this.db, { companyUid, platform, url, secret });
    return secret;
  }

  removeConnector(companyUid: string, platform: string): Promise<boolean> {
    return this.repo.deleteConnector(this.db, companyUid, platform);
  }

  async close(): Promise<void> {
    this.channels?.close();
    await this.waits.close();
  }
}
