import { Router } from 'express';
import type { AppContext } from '../../../shared/app/context.js';
import type { Request, Response } from 'express';
import { AppError, badParam, notFound, shown } from '../../../shared/infra/errors.js';
import { pageContext, requireUser, userOf } from '../guard.js';
import { noticeOf, TitledPage } from '../layout.js';
import { render } from '../render.js';
import { ConfirmAll, ProposalCard } from './proposal-parts.js';

/*
 * /app/proposals: the company's pending proposals (calendar changes an app may only propose, on
 * properties without calendar control), oldest first, each date's proposed values beside the
 * values they would replace. Approve all, approve the ticked dates (the others end `disabled`), or
 * reject: the proposals service's review (the API's and the CLI's), which locks the proposal, so of
 * two decisions one wins and the other reads "is not pending" (409). The reviewer recorded is the
 * signed-in user's email.
 *
 * Guardrails (issue 42): each date shows its price change in percent; a change beyond the company's
 * threshold or a price under the property's minimum is marked, and its only tick is a separate,
 * unticked `marked_ok` box: the service refuses to approve a marked date that was not ticked so.
 * "Approve all" first shows a confirmation page (what it will do: the dates, how many are marked,
 * the marked ones to tick), a plain form that works without script. Booked nights name their guest.
 * Times are in the company's zone (company settings), named.
 */

const NOTICES = {
  approved: 'The proposal is approved: its days are being applied.',
  partly_approved: 'The ticked days are approved and being applied; the others are dropped.',
  rejected: 'The proposal is rejected: nothing of it is applied.',
} as const;

const UID = /^pp_[\w-]{1,96}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The proposal uid of the path: a well-formed uid, else unknown (404 from the service's own wording). */
function proposalUidOf(raw: unknown): string {
  const uid = String(raw);
  if (!UID.test(uid)) throw badParam('proposal_uid', 'proposal_uid must be a proposal uid (pp_...)');
  return uid;
}

/** A form field's dates (one or many fields of the name), each YYYY-MM-DD. */
function dateList(raw: unknown, field: string): string[] {
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  for (const d of list) if (typeof d !== 'string' || !DATE.test(d)) throw badParam(field, `${field} must be YYYY-MM-DD`);
  return list as string[];
}

/** The dates to approve: the ticked unmarked ones (dates) and the ticked marked ones (marked_ok); at least one. */
function datesOf(dates: readonly string[], ticked: readonly string[]): string[] {
  const all = [...dates, ...ticked];
  if (all.length === 0) throw badParam('dates', 'Tick at least one date to approve (to approve none, reject the proposal)');
  return all;
}

/** The page's app names: uid -> name of the company's connected apps. */
async function appNamer(ctx: AppContext, companyUid: string): Promise<(uid: string | null) => string> {
  const apps = await ctx.services.oauth.connectedApps(companyUid);
  const names = new Map(apps.map((a) => [a.uid, a.name]));
  return (uid) => (uid === null ? 'an operator' : (names.get(uid) ?? 'an app no longer connected'));
}

/** The list, with a refusal's message above it (the page again, 400) or a done notice. */
async function showList(ctx: AppContext, req: Request, res: Response, o: { error?: string; done?: string; status?: number; ticked?: ReadonlySet<string> } = {}) {
  const user = userOf(res);
  const [list, appName] = await Promise.all([ctx.services.proposals.listPending(user.companyUid), appNamer(ctx, user.companyUid)]);
  const pctx = { ...pageContext(req, res), path: '/app/proposals' };
  await render(
    res,
    <TitledPage ctx={pctx} title="Proposals" notice={o.done}>
      {o.error && (
        <p class="notice error" role="alert">
          {o.error}
        </p>
      )}
      <p class="muted">
        Calendar changes proposed by apps on properties where they may not change the calendar directly, oldest first. Approve all, approve only the
        ticked dates, or reject.
      </p>
      {list.length === 0 ? <p>No proposal is waiting.</p> : list.map((p) => <ProposalCard ctx={pctx} p={p} appName={appName(p.app_uid)} ticked={o.ticked} />)}
    </TitledPage>,
    o.status ?? 200,
  );
}

/** A bad-input refusal (400) of the review: shown on the page again; anything else goes to the error page. */
const refusal = (err: unknown): string | undefined => (err instanceof AppError && err.status === 400 ? err.message : undefined);

export function proposalsRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/proposals', requireUser(ctx), async (req, res) => {
    const done = noticeOf(NOTICES, req.query.done);
    await showList(ctx, req, res, done ? { done } : {});
  });

  router.post('/proposals/:proposalUid/approve', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const uid = proposalUidOf(req.params.proposalUid);
    const form = req.body as Record<string, unknown>;
    const how = form.approve;
    if (how !== 'all' && how !== 'selected') throw badParam('approve', 'approve must be all or selected');
    const ticked = dateList(form.marked_ok, 'marked_ok');
    if (how === 'all' && form.confirmed !== 'yes') {
      // The step before "Approve all": what it will do, the marked dates to tick.
      const [[p], appName] = await Promise.all([ctx.services.proposals.listPending(user.companyUid, uid), appNamer(ctx, user.companyUid)]);
      if (!p) throw notFound('proposal_uid', `Unknown proposal ${shown(uid)} (or it is no longer pending)`);
      await render(res, <ConfirmAll ctx={pageContext(req, res)} p={p} appName={appName(p.app_uid)} ticked={new Set(ticked)} />);
      return;
    }
    let dates: string[] | undefined;
    try {
      dates = how === 'all' ? undefined : datesOf(dateList(form.dates, 'dates'), ticked);
      const outcome = await ctx.services.proposals.approve(user.companyUid, uid, user.email, dates, ticked);
      ctx.logger.info({ proposalUid: uid, status: outcome.status, userUid: user.uid }, 'proposal approved in the console');
      res.redirect(303, `/app/proposals?done=${outcome.status}`);
    } catch (err) {
      const message = refusal(err);
      if (message === undefined) throw err;
      if (how === 'all') {
        const [[p], appName] = await Promise.all([ctx.services.proposals.listPending(user.companyUid, uid), appNamer(ctx, user.companyUid)]);
        if (!p) throw err;
        await render(res, <ConfirmAll ctx={pageContext(req, res)} p={p} appName={appName(p.app_uid)} ticked={new Set(ticked)} error={message} />, 400);
        return;
      }
      await showList(ctx, req, res, { error: message, status: 400, ticked: new Set(ticked) });
    }
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
