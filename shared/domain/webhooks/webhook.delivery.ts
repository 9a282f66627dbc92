import { toStatusView } from '../../platform/requests/index.js';
import { utcDateTime } from '../../infra/time.js';
import { deliveryHeaders } from '../../platform/outbound-http/index.js';
import type { Delivery } from './webhook.repository.js';

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

/**
 * The body and signed headers of one event. Duplicates carry the same event_uid and created_dttm;
 * `data` is the request's final status (which no longer changes) or the object as the fan-out read it.
 */
export function signedBody(found: Delivery, webhook: NonNullable<Delivery['webhook']>): { body: string; headers: Record<string, string> } {
  const { event, request } = found;
  const body = JSON.stringify({
    event_uid: event.eventUid ?? event.uid,
    type: event.type,
    created_dttm: utcDateTime(event.createdAt),
    data: event.requestUid !== null ? toStatusView(request!, false) : event.data,
  });
  return { body, headers: deliveryHeaders(event.eventUid ?? event.uid, body, webhook) };
}
