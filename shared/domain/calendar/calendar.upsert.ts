/*
 * The upsert of calendar days as SQL text: the submission-order rule and what a re-sent value
 * changes. Used by the apply (calendar.repository.ts) and the benchmark's raw baseline.
 */

/**
 * The submission-order rule as SQL: on an existing day, each field group (price+currency,
 * availability, min stay, notes, max stay, closed to arrival, closed to departure) takes the
 * incoming value only when the incoming request's sequence is higher than the one that last wrote
 * the group. Shared with the benchmark's raw baseline so both measure the same statement.
 *
 * A value re-sent as it is stored changes nothing a reader sees (issue 37): the group's sequence
 * still advances (an earlier request a worker applies afterwards must still lose), but the value,
 * its provenance (`<group>_value_seq` keeps the request whose value it is) and the day's
 * request_uid / updated_dttm / last_seq stay (those name the latest-submitted request that changed
 * a value of the day); the apply records no change for such a day. A row no group of which
 * advances (a late or repeated request) is not written at all.
 */
/** Each field group's name (its columns `<name>_seq`, `<name>_value_seq`) and the value columns it decides. */
const FIELD_GROUPS: ReadonlyArray<readonly [group: string, columns: readonly string[]]> = [
  ['price', ['price', 'currency']],
  ['availability', ['is_available']],
  ['min_stay', ['min_stay']],
  ['notes', ['notes']],
  ['max_stay', ['max_stay']],
  ['closed_to_arrival', ['closed_to_arrival']],
  ['closed_to_departure', ['closed_to_departure']],
];
const advances = (g: string) => `excluded.${g}_seq > c.${g}_seq`;
const tuple = (side: string, columns: readonly string[]) => (columns.length === 1 ? `${side}.${columns[0]}` : `(${columns.map((col) => `${side}.${col}`).join(', ')})`);
const changes = (g: string, columns: readonly string[]) => `(${advances(g)} and ${tuple('excluded', columns)} is distinct from ${tuple('c', columns)})`;
/** True when the write changes at least one value of the day. */
const DAY_CHANGES = `(${FIELD_GROUPS.map(([g, columns]) => changes(g, columns)).join(' or ')})`;
export const CALENDAR_DAYS_ON_CONFLICT = `on conflict (property_uid, date) do update set
        ${[
          ...FIELD_GROUPS.flatMap(([g, columns]) => [
            // Where the group advances without a change, excluded's value is the stored one: either may stand.
            ...columns.map((col) => `${col} = case when ${advances(g)} then excluded.${col} else c.${col} end`),
            `${g}_value_seq = case when ${changes(g, columns)} then null when ${advances(g)} then coalesce(c.${g}_value_seq, c.${g}_seq) else c.${g}_value_seq end`,
            `${g}_seq = greatest(c.${g}_seq, excluded.${g}_seq)`,
          ]),
          ...['request_uid', 'updated_dttm'].map((col) => `${col} = case when ${DAY_CHANGES} and excluded.last_seq > c.last_seq then excluded.${col} else c.${col} end`),
          `last_seq = case when ${DAY_CHANGES} then greatest(c.last_seq, excluded.last_seq) else c.last_seq end`,
        ].join(',\n        ')}
      where ${FIELD_GROUPS.map(([g]) => advances(g)).join(' or ')}`;
/**
 * On a written row: the sequences of the requests whose values its groups hold (a group whose
 * value_seq is null holds its own sequence's value). The write changed a value exactly when its
 * own sequence is among them: a group it changed took its sequence and a null value_seq, a group it
 * only advanced got a value_seq, and request sequences are unique.
 */
export const CHANGED_BY = `array[${FIELD_GROUPS.map(([g]) => `case when c.${g}_value_seq is null then c.${g}_seq end`).join(', ')}]`;
