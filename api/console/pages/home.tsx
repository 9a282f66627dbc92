import { Router } from 'express';
import type { AppContext } from '../../../shared/app/context.js';
import type { TodayStayRow, TodayView, WaitingCounts } from '../../../shared/domain/console/index.js';
import { instantIn } from '../format.js';
import { pageContext, requireUser, userOf } from '../guard.js';
import { Form, Layout, type PageContext } from '../layout.js';
import { render } from '../render.js';
import { QuickChangeForm } from './quick-change.js';
import { dayLabel, ReassignForm, TaskSummary, timeLeft, wallTime } from './day-parts.js';

/*
 * Today, the console's home (issue 41 "See the day"): arrivals, departures and stays in house with
 * their times in each property's zone; tasks starting today, the ones nobody holds first (each with a
 * one-step Assign); then what waits for the manager: reservation requests with the time left,
 * proposals, guest threads waiting for a reply, webhooks failing. Each links to where it is handled.
 */

const STAY_HEADINGS = { arrival: 'Arrivals', departure: 'Departures', in_house: 'In house' } as const;

function StayList(props: { kind: TodayStayRow['kind']; stays: TodayStayRow[] }) {
  const stays = props.stays.filter((s) => s.kind === props.kind);
  const id = `today-${props.kind}`;
  return (
    <section class="card" aria-labelledby={id}>
      <h2 id={id}>
        {STAY_HEADINGS[props.kind]} <span class="muted">({stays.length})</span>
      </h2>
      {stays.length === 0 ? (
        <p class="muted">None today.</p>
      ) : (
        <ul class="items">
          {stays.map((s) => (
            <li>
              <a href={`/app/bookings/${encodeURIComponent(s.booking_uid)}`}>{s.guest_name ?? 'Guest'}</a> · {s.property_name} ·{' '}
              {props.kind === 'arrival' && <>check-in {wallTime(s.local_checkin_dttm, s.time_zone)}</>}
              {props.kind === 'departure' && <>check-out {wallTime(s.local_checkout_dttm, s.time_zone)}</>}
              {props.kind === 'in_house' && <>leaves {wallTime(s.local_checkout_dttm, s.time_zone, true)}</>}
              {' · '}
              {s.number_of_guests} guest{s.number_of_guests === 1 ? '' : 's'}{' '}
              <span class="muted">
                · {s.reservation_code} · {s.platform_type}
              </span>
              {s.thread_id !== null && (
                <>
                  {' · '}
                  <a href={`/app/inbox/${s.thread_id}`} aria-label={`Message ${s.guest_name ?? 'the guest'}`}>
                    Message
                  </a>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** "Today" differs per zone: name each distinct date with the zones (cities) it holds for. */
function TodayDates(props: { stays: TodayStayRow[] }) {
  const byDate = new Map<string, Set<string>>();
  for (const s of props.stays) byDate.set(s.today, (byDate.get(s.today) ?? new Set()).add(s.time_zone.split('/').at(-1)!.replace(/_/g, ' ')));
  if (byDate.size === 0) return <></>;
  return (
    <p class="muted">
      {[...byDate].map(([date, cities]) => `${dayLabel(date, true)} in ${[...cities].join(', ')}`).join('; ')}
    </p>
  );
}

function Waiting(props: { ctx: PageContext; view: TodayView; counts: WaitingCounts | undefined }) {
  const { view, ctx } = props;
  const c = props.counts;
  const more = (n: number | undefined, shown: number, href: string) =>
    n !== undefined && n > shown ? (
      <p>
        <a href={href}>All {n}</a>
      </p>
    ) : (
      <></>
    );
  return (
    <>
      <section class="card" aria-labelledby="wait-requests">
        <h2 id="wait-requests">
          Reservation requests <span class="muted">({c?.reservation_requests ?? view.requests.length})</span>
        </h2>
        {view.requests.length === 0 && <p class="muted">No request is waiting.</p>}
        <ul class="items">
          {view.requests.map((r) => (
            <li>
              <a href="/app/reservation-requests">{r.guest_name ?? 'A guest'}</a> · {r.property_name} · {r.reservation_code} ·{' '}
              <strong>expires in {timeLeft(r.expires_dttm)}</strong> <span class="muted">({instantIn(r.expires_dttm, r.time_zone)})</span>{' '}
              <Form ctx={ctx} action={`/app/reservation-requests/${encodeURIComponent(r.booking_uid)}/accept`} class="inline">
                <button type="submit" class="secondary" aria-label={`Accept ${r.reservation_code}`}>
                  Accept
                </button>
              </Form>
            </li>
          ))}
        </ul>
        {more(c?.reservation_requests, view.requests.length, '/app/reservation-requests')}
      </section>
      <section class="card" aria-labelledby="wait-proposals">
        <h2 id="wait-proposals">
          Proposals <span class="muted">({c?.proposals ?? view.proposals.length})</span>
        </h2>
        {view.proposals.length === 0 && <p class="muted">No proposal is waiting.</p>}
        <ul class="items">
          {view.proposals.map((p) => (
            <li>
              <a href={`/app/proposals#h-${p.uid}`}>
                {p.property_name ?? 'A property'}: {p.days} date{p.days === 1 ? '' : 's'} from {p.app_name ?? 'an app'}
              </a>
            </li>
          ))}
        </ul>
        {more(c?.proposals, view.proposals.length, '/app/proposals')}
      </section>
      <section class="card" aria-labelledby="wait-threads">
        <h2 id="wait-threads">
          Guests waiting for a reply <span class="muted">({c?.threads ?? view.threads.length})</span>
        </h2>
        {view.threads.length === 0 && <p class="muted">Every guest has an answer.</p>}
        <ul class="items">
          {view.threads.map((t) => (
            <li>
              <a href={`/app/inbox/${t.id}`}>{t.guest_name ?? 'Guest'}</a> · {t.property_name ?? ''} · {t.reservation_code}
              {t.last_message_dttm && <span class="muted"> · since {instantIn(t.last_message_dttm, props.ctx.user?.companyTimeZone ?? 'UTC')}</span>}
              {t.last_message_text && <p class="preview">{t.last_message_text}</p>}
            </li>
          ))}
        </ul>
        {more(c?.threads, view.threads.length, '/app/inbox')}
      </section>
      <section class="card" aria-labelledby="wait-webhooks">
        <h2 id="wait-webhooks">
          Webhooks failing <span class="muted">({c?.webhooks_failing ?? 0})</span>
        </h2>
        {view.webhooks.length === 0 && <p class="muted">Every delivery of the last 7 days went through.</p>}
        <ul class="items">
          {view.webhooks.map((w) => (
            <li>
              <a href="/app/webhooks">{w.app_name ?? 'An app'}</a>: {w.failed} failed, {w.retrying} being retried (last 7 days)
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

export function homeRoutes(ctx: AppContext): Router {
  const router = Router();
  router.get('/', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const pctx = pageContext(req, res);
    const [view, properties] = await Promise.all([ctx.services.consoleDay.today(user.companyUid), ctx.services.consoleDay.propertyOptions(user.companyUid)]);
    await render(
      res,
      <Layout ctx={pctx} title="Today">
        <h1>Today at {user.companyName}</h1>
        <TodayDates stays={view.stays} />
        <form method="get" action="/app/bookings" class="search" role="search" aria-label="Find a booking">
          <label for="today-q">Find a booking</label>
          <input id="today-q" name="q" type="search" placeholder="Guest name or reservation code" maxlength={100} />
          <button type="submit">Search</button>
        </form>
        <div class="today">
          <StayList kind="arrival" stays={view.stays} />
          <StayList kind="departure" stays={view.stays} />
          <StayList kind="in_house" stays={view.stays} />
          <section class="card" aria-labelledby="today-tasks">
            <h2 id="today-tasks">
              Tasks today <span class="muted">({view.tasks.length})</span>
            </h2>
            {view.tasks.length === 0 ? (
              <p class="muted">No task starts today.</p>
            ) : (
              <ul class="items">
                {view.tasks.map((t) => (
                  <li>
                    <TaskSummary t={t} /> <ReassignForm ctx={pctx} t={t} team={view.team} back="/app/" />
                  </li>
                ))}
              </ul>
            )}
            <p>
              <a href="/app/tasks">All tasks</a>
            </p>
          </section>
          <Waiting ctx={pctx} view={view} counts={pctx.waiting} />
          {properties.length > 0 && <QuickChangeForm properties={properties} />}
        </div>
      </Layout>,
    );
  });
  return router;
}
