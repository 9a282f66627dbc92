import { Router } from 'express';
import type { AppContext } from '../../../shared/app/context.js';
import { isErrorMode, type ErrorMode } from '../../../shared/domain/auth/index.js';
import { requireUser, userOf } from '../guard.js';
import { Form, type PageContext } from '../layout.js';

/*
 * The error mode of a developer app (docs/api.md "Error answers per app"), set by its owner on the
 * Developer apps page: `http` (the statuses of the code table), `igms` (every error with HTTP 200,
 * as iGMS answers), or the service's default (ERROR_HTTP_STATUS). Every installation of the app
 * follows it unless the operator gave the installation its own (`npm run cli -- app set`).
 */

const LABELS: Record<ErrorMode | 'default', string> = {
  default: 'Service default',
  http: 'HTTP statuses',
  igms: 'iGMS: HTTP 200',
};

/** The cell of one client's row: its mode and a form to change it. */
export function ErrorModeCell(props: { ctx: PageContext; clientId: string; mode: string | null }) {
  const current = isErrorMode(props.mode) ? props.mode : 'default';
  return (
    <Form ctx={props.ctx} action="/app/developer-apps/error-mode" class="inline">
      <input type="hidden" name="client_id" value={props.clientId} />
      <select name="error_mode" aria-label={`Error answers of ${props.clientId}`}>
        {(['default', 'http', 'igms'] as const).map((m) => (
          <option value={m} selected={m === current}>
            {LABELS[m]}
          </option>
        ))}
      </select>{' '}
      <button type="submit">Save</button>
    </Form>
  );
}

export function developerAppErrorModeRoutes(ctx: AppContext): Router {
  const router = Router();
  router.post('/developer-apps/error-mode', requireUser(ctx, 'owner'), async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const clientId = typeof body.client_id === 'string' ? body.client_id : '';
    const mode = body.error_mode === 'default' ? null : isErrorMode(body.error_mode) ? body.error_mode : undefined;
    if (mode === undefined || !(await ctx.services.oauth.setClientErrorMode(userOf(res).companyUid, clientId, mode))) {
      res.status(400).type('text/plain').send('Unknown developer app or error mode');
      return;
    }
    res.redirect(303, '/app/developer-apps');
  });
  return router;
}
