import type { Scope } from '../auth/index.js';
import { readableKinds } from '../changes/index.js';
import { eventMatches, eventTypes, feedEventKinds, REQUEST_FINISHED } from '../../platform/outbox/index.js';

/**
 * Whether a pattern can ever deliver to an app whose live tokens hold `scopes`: some type it
 * matches comes from a kind those scopes read (the fan-out's rule), or is the app's own
 * calendar.request.finished (any scope). Issue 39: set-webhook refuses a pattern that cannot.
 */
export function patternReadable(pattern: string, scopes: readonly Scope[]): boolean {
  const kinds = readableKinds(scopes) as readonly string[];
  return eventTypes.some((t) => eventMatches(pattern, t) && (t === REQUEST_FINISHED || kinds.includes(feedEventKinds[t])));
}
