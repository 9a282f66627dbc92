import { Router } from 'express';
import type { AppContext } from '../../../shared/app/context.js';
import type { CurrentValues, PendingProposal, ProposalDay, ProposedValues } from '../../../shared/domain/proposals/index.js';
import { badParam } from '../../../shared/infra/errors.js';
import { pageContext, requireUser, userOf } from '../guard.js';
import { Form, Layout, type PageContext } from '../layout.js';
import { render } from '../render.js';
import { money } from './property-month.js';

/*
 * /app/proposals: the company's pending proposals (calendar changes an app may only propose, on
 * properties without calendar control), oldest first, each date's proposed values beside the
 * values they would replace. Approve all, approve the ticked dates (the others end `disabled`), or
 * reject: the proposals service's review (the API's and the CLI's), which locks the proposal, so of
 * two decisions one wins and the other reads "is not pending" (409). The reviewer recorded is the
 * signed-in user's email.
 */

const NOTICES = {
  approved: 'The proposal is approved: its days are being applied.',
  partly_approved: 'The ticked days are approved and being applied; the others are dropped.',
  rejected: 'The proposal is rejected: nothing of it is applied.',
} as const;

const UID = /^pp_[\w-]{1,96}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

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

function DayRow(props: { day: ProposalDay }) {
  const { date, proposed: p, current: c } = props.day;
  return (
    <tr>
      <th scope="row" class="date">
        <label class="check">
          <input type="checkbox" name="dates" value={date} checked /> {date}
        </label>
      </th>
      <td data-label="Price">
        <Change now={c ? money(c.price, c.currency) : 'no price'} next={priceOf(p, c)} />
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
    </tr>
  );
}

function ProposalCard(props: { ctx: PageContext; p: PendingProposal; appName: string }) {
  const { p, ctx } = props;
  const action = (verb: string) => `/app/proposals/${encodeURIComponent(p.proposal_uid)}/${verb}`;
  const dates = p.days.length;
  return (
    <section class="card" aria-labelledby={`h-${p.proposal_uid}`}>
      <h2 id={`h-${p.proposal_uid}`}>
        {p.property_name} · {dates} date{dates === 1 ? '' : 's'} from {props.appName}
      </h2>
      <p class="muted">
        Proposal <code>{p.proposal_uid}</code> · made {p.created_dttm} UTC · {p.is_user_action ? 'asked for by a person in the app' : 'computed by the app'} · expires
        unreviewed {p.expires_dttm} UTC · <a href={`/app/properties/${encodeURIComponent(p.property_uid)}?month=${p.days[0]?.date.slice(0, 7) ?? ''}`}>property month</a>
      </p>
      <Form ctx={ctx} action={action('approve')}>
        <p class="muted">Current value → proposed value. Untick a date to leave it as it is.</p>
        <div class="table-wrap">
          <table class="stack proposal">
            <thead>
              <tr>
                <th scope="col">Date (ticked: approve)</th>
                <th scope="col">Price</th>
                <th scope="col">Min stay</th>
                <th scope="col">Availability</th>
                <th scope="col">Notes</th>
              </tr>
            </thead>
            <tbody>
              {p.days.map((day) => (
                <DayRow day={day} />
              ))}
            </tbody>
          </table>
        </div>
        <div class="actions">
          <button type="submit" name="approve" value="selected" aria-label={`Approve ticked dates of ${p.proposal_uid}`}>
            Approve ticked dates
          </button>
          <button type="submit" name="approve" value="all" class="secondary" aria-label={`Approve all of ${p.proposal_uid}`}>
            Approve all
          </button>
          <button
            type="submit"
            formaction={action('reject')}
            class="danger push"
            aria-label={`Reject ${p.proposal_uid}`}
            data-confirm={`Reject this proposal of ${props.appName}? Nothing of it is applied.`}
          >
            Reject
          </button>
        </div>
      </Form>
    </section>
  );
}

/** The proposal uid of the path: a well-formed uid, else unknown (404 from the service's own wording). */
function proposalUidOf(raw: unknown): string {
  const uid = String(raw);
  if (!UID.test(uid)) throw badParam('proposal_uid', 'proposal_uid must be a proposal uid (pp_...)');
  return uid;
}

/** The ticked dates of the form: one or many `dates` fields, each YYYY-MM-DD. */
function datesOf(raw: unknown): string[] {
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  if (list.length === 0) throw badParam('dates', 'Tick at least one date to approve (to approve none, reject the proposal)');
  for (const d of list) if (typeof d !== 'string' || !DATE.test(d)) throw badParam('dates', 'dates must be YYYY-MM-DD');
  return list as string[];
}

export function proposalsRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/proposals', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const [list, apps] = await Promise.all([ctx.services.proposals.listPending(user.companyUid), ctx.services.oauth.connectedApps(user.companyUid)]);
    const names = new Map(apps.map((a) => [a.uid, a.name]));
    const appName = (uid: string | null) => (uid === null ? 'an operator' : (names.get(uid) ?? `app ${uid}`));
    const done = typeof req.query.done === 'string' && req.query.done in NOTICES ? NOTICES[req.query.done as keyof typeof NOTICES] : undefined;
    const pctx = pageContext(req, res);
    await render(
      res,
      <Layout ctx={pctx} title="Proposals">
        <h1>Proposals</h1>
        {done && (
          <p class="notice" role="status">
            {done}
          </p>
        )}
        <p class="muted">
          Calendar changes proposed by apps on properties where they may not change the calendar directly, oldest first. Approve all, approve only the
          ticked dates, or reject.
        </p>
        {list.length === 0 ? <p>No proposal is waiting.</p> : list.map((p) => <ProposalCard ctx={pctx} p={p} appName={appName(p.app_uid)} />)}
      </Layout>,
    );
  });

  router.post('/proposals/:proposalUid/approve', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const uid = proposalUidOf(req.params.proposalUid);
    const how = (req.body as Record<string, unknown>).approve;
    if (how !== 'all' && how !== 'selected') throw badParam('approve', 'approve must be all or selected');
    const dates = how === 'all' ? undefined : datesOf((req.body as Record<string, unknown>).dates);
    const outcome = await ctx.services.proposals.approve(user.companyUid, uid, user.email, dates);
    ctx.logger.info({ proposalUid: uid, status: outcome.status, userUid: user.uid }, 'proposal approved in the console');
    res.redirect(303, `/app/proposals?done=${outcome.status}`);
  });

  router.post('/proposals/:proposalUid/reject', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const uid = proposalUidOf(req.params.proposalUid);
    await ctx.services.proposals.reject(user.companyUid, uid, user.email);
    ctx.logger.info({ proposalUid: uid, userUid: user.uid }, 'proposal rejected in the console');
    res.redirect(303, '/app/proposals?done=rejected');
  });

  return router;
}
