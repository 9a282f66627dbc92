import { sql, type SQL } from 'drizzle-orm';
import type { ChangeKind } from '../../infra/db/schema/change-kinds.js';

/*
 * The event types an app may subscribe to (docs/api.md "Told when anything changes"), which change
 * kind each comes from (so which scopes may receive it), and the `booking.*`-style patterns.
 */

export const REQUEST_FINISHED = 'calendar.request.finished';
export const TEST_EVENT = 'webhook.test';

/** Every event type of the feed, with the kind of object it reports. */
export const feedEventKinds = {
  'booking.created': 'booking',
  'booking.updated': 'booking',
  'booking.cancelled': 'booking',
  'task.updated': 'task',
  'calendar.days.changed': 'calendar_day',
  'message.received': 'message',
  'message.status': 'message',
  'proposal.reviewed': 'property',
} as const satisfies Record<string, ChangeKind>;
export type FeedEventType = keyof typeof feedEventKinds;

export const eventTypes = [REQUEST_FINISHED, ...(Object.keys(feedEventKinds) as FeedEventType[])] as const;

/** `a.b.*` matches every type starting with `a.b.`; `*` matches every type; otherwise the exact type. */
export function eventMatches(pattern: string, type: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return type.startsWith(pattern.slice(0, -1));
  return pattern === type;
}

export const wantsEvent = (patterns: readonly string[], type: string) => patterns.some((p) => eventMatches(p, type));

/** Why a pattern is refused (it names no event type), or undefined when it is valid. */
export function patternProblem(pattern: string): string | undefined {
  if (!/^(\*|[a-z]+(\.[a-z]+)*(\.\*)?)$/.test(pattern)) return `"${pattern.slice(0, 60)}" is not an event type or a pattern like booking.*`;
  if (!eventTypes.some((t) => eventMatches(pattern, t))) return `"${pattern}" matches no event type (${eventTypes.join(', ')})`;
  return undefined;
}

/** The same match in SQL: whether the jsonb array of patterns `events` wants the type `type`. */
export function wantsEventSql(events: SQL, type: SQL): SQL {
  return sql`exists (select 1 from jsonb_array_elements_text(${events}) p
    where p = '*' or p = ${type} or (right(p, 2) = '.*' and starts_with(${type}, left(p, -1))))`;
}
