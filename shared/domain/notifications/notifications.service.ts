import { z } from 'zod';
import { notificationKinds, notificationModes, type NotificationKind, type NotificationMode } from '../../infra/db/schema/index.js';
import type { Infra } from '../../infra/infra.js';
import { createMailer, type Mailer } from '../../platform/mail/index.js';
import { BaseService } from '../service.js';
import { compose, composeDigest } from './notifications.compose.js';
import { guestsWaiting, proposalsWaiting, reservationRequestsWaiting, webhooksFailed, type WaitingEvent } from './notifications.events.js';
import type { NotificationsRepository } from './notifications.repository.js';

/** The settings form: one mode per kind. */
export const notificationSettingsSchema = z.object(
  Object.fromEntries(notificationKinds.map((k) => [k, z.enum(notificationModes, { error: `choose email, digest or off for ${k.replace('_', ' ')}` })])) as Record<
    NotificationKind,
    z.ZodEnum<{ [M in NotificationMode]: M }>
  >,
);
export const guestReplyMinutesSchema = z.coerce.number({ error: 'minutes must be a whole number' }).int('minutes must be a whole number').min(5, 'at least 5 minutes').max(1440, 'at most 1440 minutes (a day)');

export interface SweepResult {
  found: number;
  digests: number;
  sent: number;
  failed: number;
}

/** How many notifications one sweep sends at most (the rest go at the next one). */
const SEND_BATCH = 100;

/**
 * Telling owners and managers what waits (issue 42): the sweep finds new events (reservation
 * requests, guests unanswered, proposals, webhooks failed for good) in the rows that record them,
 * records one notification per person (deduplicated by person, kind and event), makes the daily
 * digests, and sends what is pending through the service's mailer (the outbox or SMTP). At least
 * once: a notification is marked sent only after the mailer took it; a process killed in between
 * sends it again at the next sweep (the same Message-ID).
 */
export class NotificationsService extends BaseService {
  private mailer: Mailer | undefined;

  constructor(
    infra: Infra,
    private readonly repo: NotificationsRepository,
  ) {
    super(infra);
  }

  /** One pass: find, digest, send. `now` is the clock (tests move it). */
  async sweep(now = new Date()): Promise<SweepResult> {
    const found = await this.find(now);
    const digests = await this.makeDigests(now);
    const { sent, failed } = await this.sendPending(now);
    return { found, digests, sent, failed };
  }

  /** Records a notification per person for every event not told yet; answers how many rows. */
  async find(now = new Date()): Promise<number> {
    const ctx = { consoleUrl: this.config.notifications.consoleUrl, requestHours: this.config.reservations.requestHours };
    const finders: Array<[NotificationKind, () => Promise<WaitingEvent[]>]> = [
      ['reservation_request', () => reservationRequestsWaiting(this.db)],
      ['guest_waiting', () => guestsWaiting(this.db, now)],
      ['proposal_waiting', () => proposalsWaiting(this.db)],
      ['webhook_failed', () => webhooksFailed(this.db, now)],
    ];
    let rows = 0;
    for (const [kind, find] of finders) {
      const events = await find();
      rows += await this.repo.insertNotifications(
        this.db,
        kind,
        events.map((e) => ({ companyUid: e.companyUid, eventKey: e.eventKey, ...compose(kind, e, ctx) })),
      );
    }
    return rows;
  }

  /** After DIGEST_HOUR in the company's zone, each person with items for the digest gets one digest for that local day. */
  async makeDigests(now = new Date()): Promise<number> {
    let made = 0;
    for (const r of await this.repo.digestRecipients(this.db, now, this.config.notifications.digestHour)) {
      if (await this.repo.makeDigest(this.db, r.user_uid, r.company_uid, r.day, (items) => composeDigest(items, r.day, this.config.notifications.consoleUrl))) made++;
    }
    return made;
  }

  async sendPending(now = new Date()): Promise<{ sent: number; failed: number }> {
    const batch = await this.repo.claimPending(this.db, now, SEND_BATCH);
    let sent = 0;
    let failed = 0;
    for (const [i, n] of batch.entries()) {
      const outcome = await (this.mailer ??= createMailer(this.config)).send({ uid: n.uid, to: { name: n.name, address: n.email }, subject: n.subject, text: n.body });
      if (outcome.kind === 'sent') sent++;
      else if (outcome.kind === 'failed') failed++;
      await this.repo.markNotification(this.db, n.uid, outcome.kind === 'sent' ? { status: 'sent' } : { status: outcome.kind, error: outcome.error });
      if (outcome.kind === 'retry') {
        // The mail server is away: the rest of the batch waits for the next sweep rather than each
        // waiting out its own time-out (the maintenance queue runs one job at a time: the webhook
        // fan-out must not stall behind a dead SMTP server).
        await this.repo.releaseClaims(this.db, batch.slice(i + 1).map((r) => r.uid));
        this.logger.warn({ notificationUid: n.uid, error: outcome.error, left: batch.length - i - 1 }, 'notifications not sent; tried again at the next sweep');
        break;
      }
    }
    return { sent, failed };
  }

  /** A person's mode for every kind (email where never set). */
  async settings(userUid: string): Promise<Record<NotificationKind, NotificationMode>> {
    const set = await this.repo.selectSettings(this.db, userUid);
    return Object.fromEntries(notificationKinds.map((k) => [k, set[k] ?? 'email'])) as Record<NotificationKind, NotificationMode>;
  }

  setSettings(userUid: string, modes: Partial<Record<NotificationKind, NotificationMode>>): Promise<void> {
    return this.repo.upsertSettings(this.db, userUid, modes);
  }

  guestReplyMinutes(companyUid: string): Promise<number> {
    return this.repo.selectGuestReplyMinutes(this.db, companyUid);
  }

  setGuestReplyMinutes(companyUid: string, minutes: number): Promise<void> {
    return this.repo.updateGuestReplyMinutes(this.db, companyUid, minutes);
  }

  recent(userUid: string, limit = 10) {
    return this.repo.recentOf(this.db, userUid, limit);
  }

  close(): void {
    this.mailer?.close();
  }
}
