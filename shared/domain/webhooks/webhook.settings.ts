import { BaseService } from '../service.js';
import type { Infra } from '../../infra/infra.js';
import { badParam, notFound } from '../../infra/errors.js';
import { newUid } from '../../infra/ids.js';
import { pageOf } from '../../infra/http/wire.js';
import { utcDateTime, utcDateTimeOrNull } from '../../infra/time.js';
import { TEST_EVENT } from '../../platform/outbox/index.js';
import { deliveryHeaders, newWebhookSecret, postWebhook } from '../../platform/outbound-http/index.js';
import { eventsBetween, eventsByWireUid, reopenEvents, rotateSecret, selectAttempts, upsertOwnWebhook } from './webhook.log.js';
import type { WebhookRepository, WebhookRow } from './webhook.repository.js';
import { REDELIVER_MAX_EVENTS, type DeliveriesQuery, type RedeliverBody, type SetWebhookBody } from './webhook.schema.js';
import { callbackTargetProblem } from './webhook.url.js';
import { patternReadable } from './webhook.scopes.js';

/** How long a rotated-out secret keeps signing (docs/api.md: 24 h). */
export const ROTATION_GRACE_MS = 24 * 3600 * 1000;

const NO_WEBHOOK = 'This app has no webhook: set one with set-webhook';

/** An app that manages its own webhook with its token (the self-service methods). */
export class WebhookSettingsService extends BaseService {
  constructor(
    infra: Infra,
    private readonly repo: WebhookRepository,
  ) {
    super(infra);
  }

  private view(w: WebhookRow) {
    const live = w.previousSecretUntil !== null && w.previousSecretUntil.getTime() > Date.now();
    return { url: w.url, events: w.events, max_events_per_post: w.maxEventsPerPost, created_dttm: utcDateTime(w.createdAt), previous_secret_expires_dttm: live ? utcDateTimeOrNull(w.previousSecretUntil) : null };
  }

  private async own(companyUid: string, appUid: string): Promise<WebhookRow> {
    const w = await this.repo.findWebhook(this.db, companyUid, appUid);
    if (!w) throw notFound('webhook', NO_WEBHOOK);
    return w;
  }

  /**
   * The SSRF guard at set time (the delivery's own lookup checks again at every connect): a URL whose
   * host is, or resolves to, a loopback, private or link-local address is refused.
   */
  private async checkTarget(url: string): Promise<void> {
    // The address is for the operator's log only; the app is told the target is refused.
    const why = await callbackTargetProblem(url, this.config.outbound.allowPrivateTargets, (host, address) => this.logger.info({ host, address }, 'webhook target refused'));
    if (why !== undefined) throw badParam('url', `Invalid parameter url: ${why}`);
  }

  async set(companyUid: string, appUid: string, body: SetWebhookBody) {
    const scopes = await this.repo.appLiveScopes(this.db, companyUid, appUid);
    const unreadable = body.events.findIndex((p) => !patternReadable(p, scopes));
    if (unreadable >= 0) {
      const p = body.events[unreadable]!;
      throw badParam(`events[${unreadable}]`, `Invalid parameter events[${unreadable}]: "${p}" matches no event this app's scopes (${scopes.join(', ') || 'none'}) can read`);
    }
    await this.checkTarget(body.url);
    const w = await upsertOwnWebhook(this.db, companyUid, appUid, body.url, body.events, newWebhookSecret(), body.max_events_per_post ?? 1);
    if (!w) throw notFound('webhook', NO_WEBHOOK);
    return { data: { ...this.view(w), secret: w.secret } };
  }

  /** The app's webhook settings, or undefined when it has none (the console's Webhooks page; get-webhook refuses with 404). */
  async find(companyUid: string, appUid: string) {
    const w = await this.repo.findWebhook(this.db, companyUid, appUid);
    return w ? this.view(w) : undefined;
  }

  async get(companyUid: string, appUid: string) {
    return { data: this.view(await this.own(companyUid, appUid)) };
  }

  async remove(companyUid: string, appUid: string) {
    if (!(await this.repo.removeWebhook(this.db, companyUid, appUid))) throw notFound('webhook', NO_WEBHOOK);
    return { data: { deleted: true as const } };
  }

  async rotate(companyUid: string, appUid: string) {
    const w = await rotateSecret(this.db, companyUid, appUid, newWebhookSecret(), ROTATION_GRACE_MS);
    if (!w) throw notFound('webhook', NO_WEBHOOK);
    return { data: { ...this.view(w), secret: w.secret } };
  }

  /** POSTs a `webhook.test` event now, signed like every delivery; not stored, not retried. */
  async test(companyUid: string, appUid: string) {
    const w = await this.own(companyUid, appUid);
    const eventUid = newUid('whtest_');
    const event = { event_uid: eventUid, type: TEST_EVENT, created_dttm: utcDateTime(new Date()), data: { app_uid: appUid, url: w.url } };
    // As its deliveries go: an array of events (of one, here) named "<first>..<last>" when it takes several per POST.
    const many = w.maxEventsPerPost > 1;
    const body = JSON.stringify(many ? [event] : event);
    const started = performance.now();
    const result = await postWebhook(w.url, body, deliveryHeaders(many ? `${eventUid}..${eventUid}` : eventUid, body, w), {
      timeoutMs: this.config.webhooks.timeoutMs,
      allowPrivateTargets: this.config.outbound.allowPrivateTargets,
    });
    const duration_ms = Math.round(performance.now() - started);
    return { data: { event_uid: eventUid, delivered: result.ok, status_code: result.statusCode, duration_ms, error: result.ok ? null : result.error } };
  }

  async deliveries(companyUid: string, appUid: string, q: DeliveriesQuery) {
    const rows = await selectAttempts(this.db, companyUid, appUid, q);
    const page = pageOf(rows, q.page);
    return {
      data: page.data.map((r) => ({
        event_uid: r.eventUid, type: r.type, event_status: r.eventStatus, attempt: r.attempt, attempted_dttm: utcDateTime(r.createdAt),
        url: r.url, status_code: r.statusCode, error: r.error, duration_ms: r.durationMs,
      })),
      meta: page.meta,
    };
  }

  /**
   * Delivers events again: settled ones become pending (their maximum age counted from now) and
   * every one gets a delivery job. An event_uid the app does not have is 404 and nothing is redone.
   */
  async redeliver(companyUid: string, appUid: string, body: RedeliverBody, requeue: (uids: string[]) => Promise<void>) {
    await this.own(companyUid, appUid);
    let found: { uid: string; wire: string }[];
    if (body.event_uids !== undefined) {
      found = await eventsByWireUid(this.db, companyUid, appUid, body.event_uids);
      const known = new Set(found.map((f) => f.wire));
      const unknown = body.event_uids.find((u) => !known.has(u));
      if (unknown !== undefined) throw notFound('event_uids', `Unknown event ${unknown.slice(0, 100)}`);
    } else {
      found = await eventsBetween(this.db, companyUid, appUid, body.from_dttm!, body.to_dttm!, REDELIVER_MAX_EVENTS);
      if (found.length > REDELIVER_MAX_EVENTS) throw badParam('to_dttm', `Invalid parameter to_dttm: more than ${REDELIVER_MAX_EVENTS} events in the window; narrow it`);
    }
    const uids = found.map((f) => f.uid);
    await reopenEvents(this.db, companyUid, appUid, uids);
    await requeue(uids);
    return { data: { event_uids: [...new Set(found.map((f) => f.wire))] } };
  }
}
