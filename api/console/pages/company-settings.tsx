import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../../../shared/app/context.js';
import type { CompanySettings } from '../../../shared/domain/company/index.js';
import { AppError } from '../../../shared/infra/errors.js';
import { pageContext, requireUser, userOf } from '../guard.js';
import { Form, Layout } from '../layout.js';
import { render } from '../render.js';
import { instantIn } from '../format.js';

/*
 * /app/company-settings (owners only, issue 42): the company's zone, in which company-wide lists
 * show their times (a property's own things keep the property's zone), and the price change beyond
 * which a proposed price is marked on the Proposals page. Bad input: the form again with the
 * message and what was typed (400).
 */

/** The zones this runtime knows, offered as suggestions (the server checks what is sent). */
const ZONES = Intl.supportedValuesOf('timeZone');

function SettingsPage(props: { req: Request; res: Response; values: { time_zone: string; price_change_threshold: string }; error?: string; saved?: boolean }) {
  const ctx = pageContext(props.req, props.res);
  const { values } = props;
  return (
    <Layout ctx={ctx} title="Company settings">
      <h1>Company settings</h1>
      {props.saved && (
        <p class="notice" role="status">
          Saved. Company-wide times now read like this: {instantIn(new Date(), values.time_zone)}.
        </p>
      )}
      {props.error && (
        <p class="notice error" role="alert">
          {props.error}
        </p>
      )}
      <Form ctx={ctx} action="/app/company-settings" class="stacked">
        <label for="time-zone">Company time zone</label>
        <input id="time-zone" name="time_zone" value={values.time_zone} list="zones" required autocomplete="off" aria-describedby="time-zone-help" />
        <datalist id="zones">
          {ZONES.map((z) => (
            <option value={z} />
          ))}
        </datalist>
        <p id="time-zone-help" class="muted">
          An IANA zone such as Europe/Lisbon or Asia/Tokyo. Company-wide lists (such as Proposals) show their times in it; a booking, a task or a date
          keeps its property's zone.
        </p>
        <label for="threshold">Mark proposed price changes beyond (percent)</label>
        <input id="threshold" name="price_change_threshold" type="number" min="1" max="1000" step="1" value={values.price_change_threshold} required aria-describedby="threshold-help" />
        <p id="threshold-help" class="muted">
          A proposal changing a price by more than this, up or down, is marked on the Proposals page and each such date must be ticked to approve it.
        </p>
        <button type="submit">Save settings</button>
      </Form>
    </Layout>
  );
}

const asForm = (s: CompanySettings) => ({ time_zone: s.time_zone, price_change_threshold: String(s.price_change_threshold) });

export function companySettingsRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/company-settings', requireUser(ctx, 'owner'), async (req, res) => {
    const settings = await ctx.services.company.settings(userOf(res).companyUid);
    await render(res, <SettingsPage req={req} res={res} values={asForm(settings)} saved={req.query.done === 'saved'} />);
  });

  router.post('/company-settings', requireUser(ctx, 'owner'), async (req, res) => {
    const user = userOf(res);
    const form = req.body as Record<string, unknown>;
    try {
      const saved = await ctx.services.company.setSettings(user.companyUid, { time_zone: form.time_zone, price_change_threshold: form.price_change_threshold });
      ctx.logger.info({ userUid: user.uid, ...saved }, 'company settings saved in the console');
      res.redirect(303, '/app/company-settings?done=saved');
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 400) throw err;
      const text = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : '');
      const typed = { time_zone: text(form.time_zone, 64), price_change_threshold: text(form.price_change_threshold, 12) };
      await render(res, <SettingsPage req={req} res={res} values={typed} error={err.message} />, 400);
    }
  });

  return router;
}
