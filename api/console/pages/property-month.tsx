import { money } from '../format.js';
import type { DateProvenance, MonthDayRow, PropertyMonth, ProvenanceRow } from '../../../shared/domain/console/index.js';
import { ColumnHeads } from '../table.js';

/*
 * The pieces of a property's month page: the calendar grid (weeks from Monday, one cell per
 * date, each a link to that date's provenance) and the provenance panel of one date.
 */

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** The weekday of a YYYY-MM-DD date, Monday 0. */
const weekdayOf = (date: string) => (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;

/** The month's dates in weeks (Monday first), null where a week starts before or ends after the month. */
export function weeksOf(days: readonly MonthDayRow[]): (MonthDayRow | null)[][] {
  const cells: (MonthDayRow | null)[] = [...Array<null>(days.length > 0 ? weekdayOf(days[0]!.date) : 0).fill(null), ...days];
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (MonthDayRow | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}


/** What a date is, in words: for the cell's class and for a screen reader. */
function stateOf(d: MonthDayRow): { cls: string; label: string } {
  if (d.booking_uid) return { cls: 'booked', label: `booked: ${d.reservation_code ?? ''} ${d.guest_name ?? ''}` };
  if (d.is_available === 0) return { cls: 'blocked', label: 'blocked by host' };
  return { cls: 'open', label: 'available' };
}

/** The closed-to flags of a date in words (issue 35); only called when one is set. */
const closedText = (d: MonthDayRow) =>
  [d.closed_to_arrival === 1 ? 'No arrival' : '', d.closed_to_departure === 1 ? 'No departure' : ''].filter(Boolean).join(' · ');

function DayCell(props: { day: MonthDayRow; href: string; today: string; selected: boolean }) {
  const d = props.day;
  const state = stateOf(d);
  const cls = ['day', state.cls, d.proposed ? 'proposed' : '', d.date < props.today ? 'past' : '', props.selected ? 'selected' : ''].filter(Boolean).join(' ');
  return (
    <td class={cls} data-date={d.date}>
      {/* The link's name is its content (axe: label-content-name-mismatch): the full date and state
          first, for a screen reader, then what the cell shows. */}
      <a href={props.href} aria-current={props.selected ? 'date' : undefined}>
        <span class="sr-only">{`${d.date}, ${state.label}${d.proposed ? ', proposal pending' : ''}: `}</span>
        <span class="dnum">
          {Number(d.date.slice(8))} <span class="wd">{WEEKDAYS[weekdayOf(d.date)]}</span>
        </span>
        <span class="price">{money(d.price, d.currency)}</span>
        <span class="minstay">
          min {d.min_stay}
          {d.max_stay !== null && ` · max ${d.max_stay}`}
        </span>
        {(d.closed_to_arrival === 1 || d.closed_to_departure === 1) && <span class="flag">{closedText(d)}</span>}
        {d.booking_uid ? (
          <span class="holder">
            {d.reservation_code} · {d.guest_name ?? 'guest'}
          </span>
        ) : (
          <span class="avail">{d.is_available === 0 ? 'Blocked by host' : 'Available'}</span>
        )}
        {d.proposed && <span class="flag">Proposal pending</span>}
        {d.notes && <span class="note">{d.notes}</span>}
        <span class="sr-only"> (provenance)</span>
      </a>
    </td>
  );
}

export function MonthGrid(props: { m: PropertyMonth; base: string; selected?: string }) {
  const { m } = props;
  return (
    <table class="month" aria-label={`${m.property.name}, ${m.month}`}>
      <thead>
        <tr>
          {WEEKDAYS.map((w) => (
            <th scope="col">{w}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {weeksOf(m.days).map((week) => (
          <tr>
            {week.map((d) =>
              d ? <DayCell day={d} today={m.today} selected={d.date === props.selected} href={`${props.base}?month=${m.month}&date=${d.date}#provenance`} /> : <td class="day empty"></td>,
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const FIELD_LABELS: Record<ProvenanceRow['field'], string> = {
  price: 'Price',
  availability: 'Availability',
  min_stay: 'Min stay',
  notes: 'Notes',
  max_stay: 'Max stay',
  closed_to_arrival: 'Closed to arrival',
  closed_to_departure: 'Closed to departure',
};

function valueText(f: ProvenanceRow): string {
  // The stay restrictions have no property default: never set is none / open.
  if (f.field === 'max_stay') return f.value ?? 'none';
  if (f.field === 'closed_to_arrival' || f.field === 'closed_to_departure') return f.value === '1' ? 'closed' : 'open';
  if (f.value === null) return 'property default';
  if (f.field === 'availability') return f.value === '1' ? 'available' : 'blocked';
  if (f.field === 'price') {
    // Stored as "<amount> <currency>" (selectProvenance); shown as the currency writes it.
    const [amount, currency] = f.value.split(' ');
    return money(Number(amount), currency ?? '');
  }
  return f.value;
}

function Warnings(props: { warnings: Record<string, string> | null }) {
  const entries = Object.entries(props.warnings ?? {});
  if (entries.length === 0) return <span class="muted">none</span>;
  return (
    <ul class="warnings">
      {entries.map(([date, message]) => (
        <li>
          {date}: {message}
        </li>
      ))}
    </ul>
  );
}

/** Per field of the date: its value, the request that last set it, the app, when, its status and warnings. */
export function ProvenancePanel(props: { p: DateProvenance }) {
  return (
    <section class="card" id="provenance" aria-labelledby="provenance-h">
      <h2 id="provenance-h">Provenance of {props.p.date}</h2>
      <table>
        <ColumnHeads cols={['Field', 'Value', 'Set by request', 'App or person', 'When (UTC)', 'Status', 'Warnings']} />
        <tbody>
          {props.p.fields.map((f) => (
            <tr>
              <th scope="row">{FIELD_LABELS[f.field]}</th>
              <td>{valueText(f)}</td>
              <td>{f.request_uid ? <code>{f.request_uid}</code> : <span class="muted">{f.seq > 0 ? 'removed by retention' : 'never set'}</span>}</td>
              <td>{f.app_name ?? (f.user_name ? `${f.user_name} (console)` : f.request_uid ? 'the console or an operator' : '')}</td>
              <td>{f.created_dttm ?? ''}</td>
              <td>
                {f.request_status ?? ''}
                {f.request_status && f.days_total !== null ? ` (${f.days_applied ?? 0}/${f.days_total} days)` : ''}
                {f.request_error ? ` ${f.request_error}` : ''}
              </td>
              <td>{f.request_uid ? <Warnings warnings={f.warnings} /> : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
