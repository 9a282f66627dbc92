import { Router } from 'express';
import type { AppContext } from '../../../shared/app/context.js';
import { AppError } from '../../../shared/infra/errors.js';
import { pageContext, requireUser, userOf } from '../guard.js';
import { Form, Layout, type PageContext } from '../layout.js';
import { render } from '../render.js';
import { money } from '../format.js';

/*
 * A property's minimum nightly price (issue 42), on its month page: a proposal pricing a date under
 * it is marked on the Proposals page and needs its own tick. Console only: the wire has no write of
 * a property. Bad input: the form again with the message (400).
 */

export function MinPriceForm(props: { ctx: PageContext; uid: string; currency: string; value: number | null; error?: string; typed?: string }) {
  const { uid, currency, value } = props;
  return (
    <Form ctx={props.ctx} action={`/app/properties/${encodeURIComponent(uid)}/min-price`} class="control">
      <fieldset id="min-price">
        <legend>Minimum price</legend>
        {props.error && (
          <p class="error" role="alert">
            {props.error}
          </p>
        )}
        <p class="muted">Now: {value === null ? 'no minimum' : `${money(value, currency)} a night`}. Proposed prices under it are marked for review.</p>
        <label for="min-price-value">Minimum nightly price ({currency.toUpperCase()}; empty: none)</label>
        <input id="min-price-value" name="min_price" inputmode="decimal" value={props.typed ?? (value === null ? '' : String(value))} />
        <button type="submit">Save minimum price</button>
      </fieldset>
    </Form>
  );
}

/** The form with the property's current minimum, read through the properties service (for the month page). */
export async function CurrentMinPriceForm(props: { app: AppContext; ctx: PageContext; companyUid: string; uid: string }) {
  const row = await props.app.services.properties.requireRow(props.companyUid, props.uid);
  return <MinPriceForm ctx={props.ctx} uid={props.uid} currency={row.currency} value={row.minPrice === null ? null : Number(row.minPrice)} />;
}

export function propertyMinPriceRoutes(ctx: AppContext): Router {
  const router = Router();

  router.post('/properties/:uid/min-price', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const uid = String(req.params.uid);
    const raw = (req.body as Record<string, unknown>).min_price;
    try {
      const saved = await ctx.services.properties.setMinPrice(user.companyUid, uid, raw);
      ctx.logger.info({ propertyUid: uid, minPrice: saved, userUid: user.uid }, 'minimum price set in the console');
      res.redirect(303, `/app/properties/${encodeURIComponent(uid)}#min-price`);
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 400) throw err;
      const row = await ctx.services.properties.requireRow(user.companyUid, uid);
      const pctx = { ...pageContext(req, res), path: '/app/properties' };
      await render(
        res,
        <Layout ctx={pctx} title={`Minimum price · ${row.name}`}>
          <p class="crumbs">
            <a href={`/app/properties/${encodeURIComponent(uid)}`}>{row.name}</a>
          </p>
          <h1>Minimum price of {row.name}</h1>
          <MinPriceForm
            ctx={pctx}
            uid={uid}
            currency={row.currency}
            value={row.minPrice === null ? null : Number(row.minPrice)}
            error={err.message}
            typed={typeof raw === 'string' ? raw.slice(0, 20) : ''}
          />
        </Layout>,
        400,
      );
    }
  });

  return router;
}
