import { eq } from 'drizzle-orm';
import type { Db } from '../../shared/infra/db/client.js';
import { apps } from '../../shared/infra/db/schema/index.js';
import { utcDateTime } from '../../shared/infra/time.js';
import { callbackUrlProblem } from '../../shared/domain/webhooks/index.js';
import { newWebhookSecret } from '../../shared/platform/outbound-http/index.js';
import { CommandError, UsageError, type Command } from './commands.js';

/*
 * `webhook set|show|remove|deliveries`: an app's callback URL. The app uid names the company too,
 * so --app is all the operator gives. The secret is printed once, by `set` (a second `set` makes
 * a new one); `show` never prints it.
 */

const utc = (d: Date | null) => (d ? utcDateTime(d) : '-');

async function companyOfApp(db: Db, appUid: string): Promise<string> {
  const [row] = await db.select({ companyUid: apps.companyUid }).from(apps).where(eq(apps.uid, appUid));
  if (!row) throw new CommandError(`unknown app ${appUid}`);
  return row.companyUid;
}

function appOption(v: Record<string, string | undefined>): string {
  const app = v.app?.trim();
  if (!app) throw new UsageError('--app must not be empty');
  return app;
}

/** --url by the rule set-webhook applies too (webhooks' callbackUrlProblem). */
export function callbackUrl(text: string | undefined): string {
  const given = text?.trim() ?? '';
  const problem = callbackUrlProblem(given);
  if (problem === 'notAbsolute') throw new UsageError(`--url must be an absolute http(s) URL, got "${text ?? ''}"`);
  if (problem === 'notHttp') throw new UsageError(`--url must be http or https, got ${new URL(given).protocol}`);
  if (problem === 'credentials') throw new UsageError('--url must not carry credentials');
  return new URL(given).toString();
}

function wholeNumber(text: string | undefined, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < 1 || n > max) throw new UsageError(`--limit must be a whole number from 1 to ${max}, got "${text}"`);
  return n;
}

export const webhookCommands: Record<string, Command> = {
  'webhook set': {
    usage: 'webhook set --app <app uid> --url <https://...>   (prints the signing secret, once)',
    options: { app: { required: true }, url: { required: true } },
    prepare(v) {
      const [app, url] = [appOption(v), callbackUrl(v.url)];
      return async ({ database: { db }, services }, io) => {
        const company = await companyOfApp(db, app);
        const secret = newWebhookSecret();
        await services.webhooks.set(company, app, url, secret);
        io.result(secret);
        io.note(`webhook of app ${app} set to ${url}`);
        io.note('The signing secret is shown this once (a new `webhook set` makes a new one).');
      };
    },
  },

  'webhook show': {
    usage: 'webhook show --app <app uid>',
    options: { app: { required: true } },
    prepare(v) {
      const app = appOption(v);
      return async ({ database: { db }, services }, io) => {
        const hook = await services.webhooks.find(await companyOfApp(db, app), app);
        if (!hook) throw new CommandError(`app ${app} has no webhook`);
        io.result(hook.url);
        io.note(`set ${utc(hook.createdAt)} UTC; the secret is not shown again`);
      };
    },
  },

  'webhook remove': {
    usage: 'webhook remove --app <app uid>',
    options: { app: { required: true } },
    prepare(v) {
      const app = appOption(v);
      return async ({ database: { db }, services }, io) => {
        if (!(await services.webhooks.remove(await companyOfApp(db, app), app))) throw new CommandError(`app ${app} has no webhook`);
        io.result('removed');
      };
    },
  },

  'webhook deliveries': {
    usage: 'webhook deliveries --app <app uid> [--limit <events, default 20>]',
    options: { app: { required: true }, limit: {} },
    prepare(v) {
      const app = appOption(v);
      const limit = wholeNumber(v.limit, 20, 1000);
      return async ({ database: { db }, services }, io) => {
        const events = await services.webhooks.deliveries(await companyOfApp(db, app), app, limit);
        if (events.length === 0) io.note(`no webhook events for app ${app}`);
        // One line per event, then one indented line per attempt: status code or error.
        for (const e of events) {
          io.result(`${e.uid}  ${e.status}  ${e.requestUid !== null ? `request ${e.requestUid}` : `${e.type} ${e.eventUid ?? ''}`}  created ${utc(e.createdAt)}  attempts ${e.attempts}`);
          for (const a of e.attemptRows) {
            const outcome = a.statusCode !== null ? `HTTP ${a.statusCode}` : `error: ${a.error ?? 'unknown'}`;
            io.result(`  #${a.attempt}  ${utc(a.createdAt)}  ${outcome}  ${a.durationMs} ms`);
          }
        }
      };
    },
  },
};
