import { toStatusView } from '../../platform/requests/index.js';
import { utcDateTime } from '../../infra/time.js';
import { deliveryHeaders } from '../../platform/outbound-http/index.js';
import type { Delivery, DeliveryRow } from './webhook.repository.js';

/* The settings and the wire body of a delivery (webhook.service.ts deliver, its drain). */

/** A drain's bounds: one job sends at most this many events of its object after its own, or for this long. */
export const DRAIN_EVENTS = 200;
export const DRAIN_MS = 1000;
/**
 * How long a job whose event waits behind an earlier one (or a drain of its object) stays parked:
 * the end of that one promotes it (releaseNext), so this is only the fallback. Longer than the
 * gate's busy delay: a busy object's parked jobs woke every second to find themselves still blocked.
 */
export const BLOCKED_WAIT_MS = 5000;
/** How many pending events of an object a drain reads at once: whole POSTs of `per` events, about 50. */
export const perRead = (per: number) => per * Math.max(1, Math.floor(50 / per));
/** A drain records its settled attempts in statements of at most this many. */
export const DRAIN_RECORD_BATCH = 25;
/** How long a delivery waits for a slot of a busy target that answers (target-gate.ts enterWaiting). */
export const GATE_WAIT_MS = 1000;

export type DeliveryResult =
  | { outcome: 'delivered' | 'failed' | 'retry'; statusCode: number | null; error: string | null }
  | { outcome: 'skipped'; reason: string }
  /**
   * The target is busy or its circuit open, or an earlier event of the same object is still
   * pending (blocked): try again at `until`, no attempt made or counted.
   */
  | { outcome: 'deferred'; until: number; why: 'busy' | 'open' | 'blocked' };

/** The wire event_uid of an event: the feed's change_uid, or the row's own uid (calendar.request.finished). */
const wireUid = (e: DeliveryRow['event']) => e.eventUid ?? e.uid;

/**
 * An event as it goes on the wire. Duplicates carry the same event_uid and created_dttm; `data` is
 * the request's final status (which no longer changes) or the object as the fan-out read it.
 */
function eventView({ event, request }: DeliveryRow) {
  return {
    event_uid: wireUid(event),
    type: event.type,
    created_dttm: utcDateTime(event.createdAt),
    data: event.requestUid !== null ? toStatusView(request!, false) : event.data,
  };
}

/**
 * The body and signed headers of one POST. A webhook with max_events_per_post 1 gets one event, the
 * object itself, named by its event_uid (the wire as it always was); one with more gets a JSON array
 * of `batch` (one object's events, in order), even of one, named by the batch: "<first>..<last>"
 * event_uid (docs/api.md).
 */
export function signedBody(batch: readonly DeliveryRow[], webhook: NonNullable<Delivery['webhook']>): { body: string; headers: Record<string, string> } {
  const many = webhook.maxEventsPerPost > 1;
  const body = JSON.stringify(many ? batch.map(eventView) : eventView(batch[0]!));
  const id = many ? `${wireUid(batch[0]!.event)}..${wireUid(batch[batch.length - 1]!.event)}` : wireUid(batch[0]!.event);
  return { body, headers: deliveryHeaders(id, body, webhook) };
}

/** Whether an event can be POSTed at all: its app still has a webhook, and the request it reports still exists. */
export const deliverable = ({ event, webhook, request }: DeliveryRow) => webhook !== null && (event.requestUid === null || request !== null);

/**
 * The events of one POST from `rows` (one object's pending events in order) at `start`: the first,
 * then while there is room (the webhook's max_events_per_post) the next ones that can go with it:
 * deliverable, to the same URL and, unless `triedToo`, never tried (an event tried on its own keeps
 * its own retry schedule). The first is taken even when it cannot be delivered (its attempt fails
 * it); empty when the first was tried (unless `triedToo`) or goes elsewhere.
 */
export function batchFrom(rows: readonly DeliveryRow[], start: number, url: string, triedToo: boolean): DeliveryRow[] {
  const fits = (r: DeliveryRow) => (triedToo || r.event.attempts === 0) && r.webhook?.url === url;
  const first = rows[start];
  if (!first || !fits(first)) return [];
  const batch = [first];
  const per = first.webhook?.maxEventsPerPost ?? 1;
  for (let i = start + 1; i < rows.length && batch.length < per && deliverable(first); i++) {
    if (!fits(rows[i]!) || !deliverable(rows[i]!)) break;
    batch.push(rows[i]!);
  }
  return batch;
}
