import type { CurrentValues, PendingProposal, ProposedValues, ReviewedDay } from '../../../shared/domain/proposals/index.js';
import { Form, Layout, type PageContext } from '../layout.js';
import { dateLabel, instantIn, money, percentChange } from '../format.js';
import { ColumnHeads } from '../table.js';

/*
 * The Proposals page's parts (pages/proposals.tsx has the routes): a proposal's card, its dates
 * beside their current values with the guardrails' marks and ticks, and the confirmation step of
 * "Approve all".
 */

/** A proposed field beside the current one: "current → proposed", or "unchanged" when the day leaves it. */
function Change(props: { now: string; next: string | null }) {
  if (props.next === null || props.next === props.now) return <span class="muted">{props.now} (unchanged)</span>;
  return (
    <>
      <span class="was">{props.now}</span> → <strong>{props.next}</strong>
    </>
  );
}

const availability = (v: 0 | 1 | null) => (v === null ? null : v === 1 ? 'available' : 'blocked');
const priceOf = (p: ProposedValues, c: CurrentValues | null) =>
  p.price === null && p.currency === null ? null : money(p.price ?? c?.price ?? null, (p.currency ?? c?.currency ?? '').toUpperCase());

const maxStayText = (v: number | null | undefined) => (v === null || v === undefined || v === 0 ? 'no max' : `max ${v}`);
const closedText = (what: string, v: 0 | 1 | null | undefined) => (v === null || v === undefined ? null : v === 1 ? `closed to ${what}` : `open to ${what}`);

/** The stay restrictions (issue 35) the day sets, each beside its current value; "unchanged" when it sets none. */
function Restrictions(props: { p: ProposedValues; c: CurrentValues | null }) {
  const { p, c } = props;
  if (p.max_stay === null && p.closed_to_arrival === null && p.closed_to_departure === null) return <span class="muted">unchanged</span>;
  return (
    <>
      {p.max_stay !== null && (
        <div>
          <Change now={maxStayText(c?.max_stay)} next={maxStayText(p.max_stay)} />
        </div>
      )}
      {p.closed_to_arrival !== null && (
        <div>
          <Change now={closedText('arrival', c?.closed_to_arrival ?? 0) ?? ''} next={closedText('arrival', p.closed_to_arrival)} />
        </div>
      )}
      {p.closed_to_departure !== null && (
        <div>
          <Change now={closedText('departure', c?.closed_to_departure ?? 0) ?? ''} next={closedText('departure', p.closed_to_departure)} />
        </div>
      )}
    </>
  );
}

/** The marks of a day in words: why it needs its own tick. */
function marksText(day: ReviewedDay, p: PendingProposal): string {
  return day.marks
    .map((m) =>
      m === 'beyond_threshold'
        ? `change beyond ±${p.context.threshold}%`
        : `under the minimum ${money(p.context.min_price, p.context.currency)}`,
    )
    .join(', ');
}

/** The price change of a day in percent, with its marks ("−99%, marked: change beyond ±30%"). */
function PriceChange(props: { day: ReviewedDay; p: PendingProposal }) {
  const { day, p } = props;
  const pct = day.change === null ? null : percentChange(100, 100 + day.change);
  return (
    <>
      {pct !== null && <span class={day.marks.includes('beyond_threshold') ? 'pct mark' : 'pct'}> ({pct})</span>}
      {day.marks.length > 0 && (
        <div class="mark">
          <strong>Marked:</strong> {marksText(day, p)}
        </div>
      )}
    </>
  );
}

/** The date's tick: an unmarked date is ticked already (dates); a marked one has its own unticked box (marked_ok). */
function DateTick(props: { day: ReviewedDay; ticked: ReadonlySet<string> }) {
  const { date, marks } = props.day;
  if (marks.length === 0) {
    return (
      <label class="check">
        <input type="checkbox" name="dates" value={date} checked /> {date}
      </label>
    );
  }
  return (
    <label class="check">
      <input type="checkbox" name="marked_ok" value={date} checked={props.ticked.has(date)} /> {date}
      <span class="mark-label"> marked: tick to approve</span>
    </label>
  );
}

function DayRow(props: { day: ReviewedDay; p: PendingProposal; ticked: ReadonlySet<string> }) {
  const { day, p: proposal } = props;
  const { date, proposed: p, current: c } = day;
  return (
    <tr class={day.marks.length > 0 ? 'marked' : undefined}>
      <th scope="row" class="date">
        <DateTick day={day} ticked={props.ticked} />
        <div class="muted wd">{dateLabel(date)}</div>
      </th>
      <td data-label="Price">
        <Change now={c ? money(c.price, c.currency) : 'no price'} next={priceOf(p, c)} />
        <PriceChange day={day} p={proposal} />
      </td>
      <td data-label="Booked">
        {day.booked ? (
          <>
            {day.booked.guest_name ?? 'a guest'} <span class="muted">({day.booked.reservation_code})</span>
          </>
        ) : (
          <span class="muted">free</span>
        )}
      </td>
      <td data-label="Min stay">
        <Change now={String(c?.min_stay ?? 1)} next={p.min_stay === null ? null : String(p.min_stay)} />
      </td>
      <td data-label="Availability">
        <Change now={c ? (availability(c.is_available) ?? '') : 'available'} next={availability(p.is_available)} />
      </td>
      <td data-label="Notes" class="note">
        <Change now={c?.notes ? c.notes : 'none'} next={p.notes === null ? null : p.notes === '' ? 'none (cleared)' : p.notes} />
      </td>
      <td data-label="Stay rules">
        <Restrictions p={p} c={c} />
      </td>
    </tr>
  );
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
const markedOf = (p: PendingProposal) => p.days.filter((d) => d.marks.length > 0);

/** What a proposal is, in words: its property, its dates, its app, when (company zone). */
function ProposalFacts(props: { p: PendingProposal }) {
  const { p } = props;
  const zone = p.context.company_zone;
  return (
    <p class="muted">
      Made {instantIn(p.created_dttm, zone)} · {p.is_user_action ? 'asked for by a person in the app' : 'computed by the app'} · expires unreviewed{' '}
      {instantIn(p.expires_dttm, zone)} ·{' '}
      <a href={`/app/properties/${encodeURIComponent(p.property_uid)}?month=${p.days[0]?.date.slice(0, 7) ?? ''}`}>{p.property_name}: month</a>
      <br />
      <span class="details">
        Proposal <code>{p.proposal_uid}</code>
      </span>
    </p>
  );
}

export function ProposalCard(props: { ctx: PageContext; p: PendingProposal; appName: string; ticked?: ReadonlySet<string> }) {
  const { p, ctx } = props;
  const action = (verb: string) => `/app/proposals/${encodeURIComponent(p.proposal_uid)}/${verb}`;
  const dates = p.days.length;
  const marked = markedOf(p).length;
  return (
    <section class="card" aria-labelledby={`h-${p.proposal_uid}`}>
      <h2 id={`h-${p.proposal_uid}`}>
        {p.property_name} · {dates} date{dates === 1 ? '' : 's'} from {props.appName}
      </h2>
      <ProposalFacts p={p} />
      {marked > 0 && (
        <p class="notice">
          {plural(marked, 'date')} marked: a price change beyond ±{p.context.threshold}%
          {p.context.min_price !== null ? ` or under the minimum ${money(p.context.min_price, p.context.currency)}` : ''}. A marked date is approved only
          when you tick it.
        </p>
      )}
      <Form ctx={ctx} action={action('approve')}>
        <p class="muted">Current value → proposed value. Untick a date to leave it as it is.</p>
        <div class="table-wrap">
          <table class="stack proposal">
            <ColumnHeads cols={['Date (ticked: approve)', 'Price', 'Booked', 'Min stay', 'Availability', 'Notes', 'Stay rules']} />
            <tbody>
              {p.days.map((day) => (
                <DayRow day={day} p={p} ticked={props.ticked ?? new Set()} />
              ))}
            </tbody>
          </table>
        </div>
        <div class="actions">
          <button type="submit" name="approve" value="selected">
            Approve ticked dates
          </button>
          <button type="submit" name="approve" value="all" class="secondary">
            Approve all…
          </button>
          <button type="submit" formaction={action('reject')} class="danger push" data-confirm={`Reject this proposal of ${props.appName}? Nothing of it is applied.`}>
            Reject
          </button>
        </div>
      </Form>
    </section>
  );
}

/**
 * "Approve all", the step before: what it will do (every date, how many are marked), the marked
 * dates each with its own box (ticked already when ticked on the list), and the one button that
 * approves. A plain form: no script needed.
 */
export function ConfirmAll(props: { ctx: PageContext; p: PendingProposal; appName: string; ticked: ReadonlySet<string>; error?: string }) {
  const { p, ctx } = props;
  const marked = markedOf(p);
  return (
    <Layout ctx={ctx} title="Approve all?">
      <p class="crumbs">
        <a href="/app/proposals">Proposals</a>
      </p>
      <h1>
        Approve all {plural(p.days.length, 'date')} of {p.property_name}?
      </h1>
      {props.error && (
        <p class="notice error" role="alert">
          {props.error}
        </p>
      )}
      <section class="card" aria-labelledby="confirm-what">
        <h2 id="confirm-what">
          What this does: {p.days.length} date{p.days.length === 1 ? '' : 's'} from {props.appName}, {marked.length} marked
        </h2>
        <ProposalFacts p={p} />
        <Form ctx={ctx} action={`/app/proposals/${encodeURIComponent(p.proposal_uid)}/approve`}>
          <input type="hidden" name="approve" value="all" />
          <input type="hidden" name="confirmed" value="yes" />
          <ul class="confirm-days">
            {p.days.map((day) =>
              day.marks.length > 0 ? (
                <li class="marked">
                  <label class="check">
                    <input type="checkbox" name="marked_ok" value={day.date} checked={props.ticked.has(day.date)} /> {dateLabel(day.date, true)}: approve this marked
                    change
                  </label>{' '}
                  <Change now={day.current ? money(day.current.price, day.current.currency) : 'no price'} next={priceOf(day.proposed, day.current)} />
                  <PriceChange day={day} p={p} />
                  {day.booked && <div class="muted">Booked by {day.booked.guest_name ?? 'a guest'}</div>}
                </li>
              ) : (
                <li>
                  {dateLabel(day.date, true)}: <Change now={day.current ? money(day.current.price, day.current.currency) : 'no price'} next={priceOf(day.proposed, day.current)} />
                  <PriceChange day={day} p={p} />
                  {day.booked && <span class="muted"> · booked by {day.booked.guest_name ?? 'a guest'}</span>}
                </li>
              ),
            )}
          </ul>
          {marked.length > 0 && <p>Each marked date must be ticked: an unticked one stops the approval and nothing is applied.</p>}
          <div class="actions">
            <button type="submit">Approve all {plural(p.days.length, 'date')}</button>
            <a href="/app/proposals">Back, approve nothing</a>
          </div>
        </Form>
      </section>
    </Layout>
  );
}
