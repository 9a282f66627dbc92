import type { DateProvenance, MonthDayRow, PropertyMonth, ProvenanceRow } from '../../../shared/domain/console/index.js';

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

export const money = (price: number | null, currency: string) => (price === null ? 'no price' : `${price.toFixed(2)} ${currency}`);

/** What a date is, in words: for the cell's class and for a screen reader. */
function stateOf(d: MonthDayRow): { cls: string; label: string } {
  if (d.booking_uid) return { cls: 'booked', label: `booked: ${d.reservation_code ?? ''} ${d.guest_name ?? ''}` };
  if (d.is_available === 0) return { cls: 'blocked', label: 'blocked by host' };
  return { cls: 'open', label: 'available' };
}

function DayCell(props: { day: MonthDayRow; href: string; today: string; selected: boolean }) {
  const d = props.day;
  const state = stateOf(d);
  const cls = ['day', state.cls, d.proposed ? 'proposed' : '', d.date < props.today ? 'past' : '', props.selected ? 'selected' : ''].filter(Boolean).join(' ');
  return (
    <td class={cls} data-date={d.date}>
      <a href={props.href} aria-label={`${d.date}, ${state.label}${d.proposed ? ', proposal pending' : ''}: provenance`} aria-current={props.selected ? 'date' : undefined}>
        <span class="dnum">
          {Number(d.date.slice(8))} <span class="wd">{WEEKDAYS[weekdayOf(d.date)]}</span>
        </span>
        <span class="price">{money(d.price, d.currency)}</span>
        <span class="minstay">min {d.min_stay}</span>
        {d.booking_uid ? (
          <span class="holder">
            {d.reservation_code} · {d.guest_name ?? 'guest'}
          </span>
        ) : (
          <span class="avail">{d.is_available === 0 ? 'Blocked by host' : 'Available'}</span>
        )}
        {d.proposed && <span class="flag">Proposal pending</span>}
        {d.notes && <span class="note">{d.notes}</span>}
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

const FIELD_LABELS: Record<ProvenanceRow['field'], string> = { price: 'Price', availability: 'Availability', min_stay: 'Min stay', notes: 'Notes' };

function valueText(f: ProvenanceRow): string {
  if (f.value === null) return 'property default';
  if (f.field === 'availability') return f.value === '1' ? 'available' : 'blocked';
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
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Value</th>
            <th scope="col">Set by request</th>
            <th scope="col">App</th>
            <th scope="col">When (UTC)</th>
            <th scope="col">Status</th>
            <th scope="col">Warnings</th>
          </tr>
        </thead>
        <tbody>
          {props.p.fields.map((f) => (
            <tr>
              <th scope="row">{FIELD_LABELS[f.field]}</th>
              <td>{valueText(f)}</td>
              <td>{f.request_uid ? <code>{f.request_uid}</code> : <span class="muted">{f.seq > 0 ? 'removed by retention' : 'never set'}</span>}</td>
              <td>{f.app_name ?? (f.request_uid ? 'the console or an operator' : '')}</td>
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
