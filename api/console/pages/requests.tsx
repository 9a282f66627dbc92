import { instantIn } from '../format.js';
import { Router } from 'express';
import type { AppContext } from '../../../shared/app/context.js';
import type { RequestListRow } from '../../../shared/domain/console/index.js';
import { pageContext, requireUser, userOf } from '../guard.js';
import { Layout } from '../layout.js';
import { render } from '../render.js';
import { LIVE_MS, renderFragment } from './live.js';
import { ColumnHeads } from '../table.js';

/*
 * /app/requests: the company's most recent calendar requests (every kind: batches, ranges,
 * proposals' requests, imports), newest first, with status, app, days and warnings. The rows
 * refresh in place (GET /app/requests/rows, one statement) every LIVE_MS while the page is open,
 * so a request a worker finishes changes status without a reload.
 */

/** Each status in words, beside it (issue 42: statuses explained in place). */
const STATUS_WORDS: Record<string, string> = {
  queued: 'waiting for a worker',
  processing: 'being applied',
  completed: 'applied',
  error: 'not applied: see why',
  paused: 'a proposal waiting for review',
  disabled: 'rejected or expired, not applied',
};

function RequestRows(props: { rows: RequestListRow[]; zone: string }) {
  if (props.rows.length === 0) {
    return (
      <tr>
        <td colspan={6}>No calendar request yet.</td>
      </tr>
    );
  }
  return (
    <>
      {props.rows.map((r) => {
        const warnings = Object.entries(r.warnings ?? {});
        return (
          <tr data-request={r.uid} class={`status-${r.status}`}>
            <td data-label="Submitted">{instantIn(r.created_dttm, props.zone)}</td>
            <td data-label="Property">
              <a href={`/app/properties/${encodeURIComponent(r.property_uid)}`}>{r.property_name}</a>
            </td>
            <td data-label="App">{r.app_name ?? (r.user_name ? `${r.user_name} (console)` : 'the console or an operator')}</td>
            <td data-label="Status">
              <span class="status">{r.status}</span>
              {STATUS_WORDS[r.status] && <span class="muted"> {STATUS_WORDS[r.status]}</span>}
              {r.request_error ? <span class="error"> {r.request_error}</span> : ''}
              {/* The id an app polls, for a person who needs it (support, the app's own logs): a details line. */}
              <span class="details">
                {' '}
                request <code>{r.uid}</code>
              </span>
            </td>
            <td data-label="Days">
              {r.days_applied ?? 0}/{r.days_total} applied
            </td>
            <td data-label="Warnings">
              {warnings.length === 0 ? (
                <span class="muted">none</span>
              ) : (
                <ul class="warnings">
                  {warnings.map(([date, message]) => (
                    <li>
                      {date}: {message}
                    </li>
                  ))}
                </ul>
              )}
            </td>
          </tr>
        );
      })}
    </>
  );
}

export function requestsRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/requests', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const rows = await ctx.services.console.requests(user.companyUid);
    await render(
      res,
      <Layout ctx={pageContext(req, res)} title="Requests">
        <h1>Calendar requests</h1>
        <p class="muted">The {rows.length === 0 ? '' : 'latest '}calendar requests of every app, newest first. This list updates by itself while the page is open.</p>
        <div class="table-wrap">
          <table class="stack">
            <ColumnHeads cols={['Submitted', 'Property', 'App', 'Status', 'Days', 'Warnings']} />
            <tbody id="request-rows" data-live="/app/requests/rows" data-live-ms={String(LIVE_MS)}>
              <RequestRows rows={rows} zone={userOf(res).companyTimeZone} />
            </tbody>
          </table>
        </div>
      </Layout>,
    );
  });

  router.get('/requests/rows', requireUser(ctx), async (_req, res) => {
    const rows = await ctx.services.console.requests(userOf(res).companyUid);
    await renderFragment(res, <RequestRows rows={rows} zone={userOf(res).companyTimeZone} />);
  });

  return router;
}
