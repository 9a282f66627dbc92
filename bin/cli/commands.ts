import { Presets, SingleBar } from 'cli-progress';
import { isScope, scopes, type Scope } from '../../shared/domain/auth/index.js';
import type { AppContext } from '../../shared/app/context.js';
import type { Services } from '../../shared/app/services.js';
import { DEFAULT_DEMO_BOOKINGS, seedDemo, type DemoSeed } from '../demo/seed.js';

/** The command line is wrong as written: exit code 2, nothing touched. */
export class UsageError extends Error {}
/** The command was well formed but could not be done (unknown company, app or token): exit code 1. */
export class CommandError extends Error {}

export interface Io {
  /** The result (a uid, a token): one line on stdout, so `$(npm run -s cli -- ...)` captures it. */
  result(line: string): void;
  /** Notes for the person: stderr. */
  note(line: string): void;
  /** Everything on standard input (`--password-stdin`). */
  readStdin?(): Promise<string>;
}

export type Values = Record<string, string | undefined>;

export interface Command {
  usage: string;
  /**
   * Every option takes a value, except a `flag` (present: "true"); a `multiple` one may be
   * repeated, its values joined with "\n" (see listOf).
   */
  options: Record<string, { required?: boolean; flag?: boolean; multiple?: boolean }>;
  /** The option a single positional argument fills (`import FILE.jsonl` = `import --file FILE.jsonl`). */
  positional?: string;
  /** Checks the arguments, before any database is opened, and returns the work to do. */
  prepare(values: Values): (app: AppContext, io: Io) => Promise<void>;
}

export const commands: Record<string, Command> = {
  'company create': {
    usage: 'company create --name <name>',
    options: { name: { required: true } },
    prepare(v) {
      const name = nonEmpty(v, 'name');
      return async ({ services }, io) => {
        io.result(await services.company.create(name));
      };
    },
  },

  'company set': {
    usage: 'company set --company <uid> --managers-install-apps <true|false>   (default false: only owners install apps)',
    options: { company: { required: true }, 'managers-install-apps': { required: true } },
    prepare(v) {
      const company = nonEmpty(v, 'company');
      const allow = nonEmpty(v, 'managers-install-apps');
      if (allow !== 'true' && allow !== 'false') throw new UsageError(`--managers-install-apps must be true or false, got "${allow}"`);
      return async ({ services }, io) => {
        if (!(await services.company.setManagersInstallApps(company, allow === 'true'))) throw new CommandError(`unknown company ${company}`);
        io.result(allow === 'true' ? 'managers may install apps' : 'only owners install apps');
      };
    },
  },

  'property create': {
    usage: 'property create --company <uid> --name <name> --time-zone <IANA zone, e.g. Europe/Lisbon>',
    options: { company: { required: true }, name: { required: true }, 'time-zone': { required: true } },
    prepare(v) {
      const [company, name, zone] = [nonEmpty(v, 'company'), nonEmpty(v, 'name'), timeZone(nonEmpty(v, 'time-zone'))];
      return async ({ services }, io) => {
        await requireCompany(services, company);
        io.result(await services.properties.create(company, { name, timeZone: zone }));
      };
    },
  },

  'token issue': {
    usage: 'token issue --company <uid> --scopes <scope,scope,...|all> [--app-name <name> | --app <app uid>]',
    options: { company: { required: true }, scopes: { required: true }, 'app-name': {}, app: {} },
    prepare(v) {
      if (v['app-name'] !== undefined && v.app !== undefined) {
        throw new UsageError('give --app-name (a new app) or --app (an existing one), not both');
      }
      const company = nonEmpty(v, 'company');
      const granted = scopeList(nonEmpty(v, 'scopes'));
      const appUid = v.app;
      return async ({ services }, io) => {
        await requireCompany(services, company);
        if (appUid) await requireApp(services, company, appUid);
        const issued = await services.tokens.issue(company, { scopes: granted, appName: v['app-name'], appUid });
        io.result(issued.token);
        io.note(`token uid ${issued.tokenUid}, app uid ${issued.appUid}, scopes ${granted.join(',')}`);
        io.note('The token is shown this once: only its hash is stored.');
      };
    },
  },

  'token revoke': {
    usage: 'token revoke --company <uid> --token <token uid or the token itself>',
    options: { company: { required: true }, token: { required: true } },
    prepare(v) {
      const [company, token] = [nonEmpty(v, 'company'), nonEmpty(v, 'token')];
      return async ({ services }, io) => {
        if (!(await services.tokens.revoke(company, token))) {
          throw new CommandError(`no live token matches --token in company ${company} (unknown, already revoked, or another company's)`);
        }
        io.result('revoked');
      };
    },
  },

  'app disable': appToggle(true),
  'app enable': appToggle(false),

  seed: {
    usage: `seed [--bookings <n, default ${DEFAULT_DEMO_BOOKINGS}>] [--name <company name>] [--seed <number>]`,
    options: { bookings: {}, name: {}, seed: {} },
    prepare(v) {
      const bookings = v.bookings === undefined ? DEFAULT_DEMO_BOOKINGS : wholeNumber(v.bookings, 'bookings', 10_000_000);
      const seed = v.seed === undefined ? undefined : wholeNumber(v.seed, 'seed', 2 ** 32 - 1);
      return async ({ services }, io) => {
        const bar = new SingleBar(
          { stream: process.stderr, format: 'Seeding [{bar}] {percentage}% | {value}/{total} bookings | {duration}s', hideCursor: true },
          Presets.shades_classic,
        );
        const started = performance.now();
        bar.start(bookings, 0);
        let demo: DemoSeed;
        try {
          demo = await seedDemo(services, {
            bookings,
            seed,
            companyName: v.name ?? `Demo Stays (${bookings} bookings)`,
            onProgress: (done) => bar.update(done),
          });
        } finally {
          bar.stop();
        }
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        io.note(
          `Seeded company ${demo.companyUid}: ${demo.bookings} bookings, ${demo.tasks} tasks, ${demo.propertyUids.length} properties in ${seconds} s.`,
        );
        io.note(`Token with every scope (token uid ${demo.tokenUid}), shown this once:`);
        io.result(demo.token);
      };
    },
  },
};

function appToggle(disabled: boolean): Command {
  return {
    usage: `app ${disabled ? 'disable' : 'enable'} --company <uid> --app <app uid>`,
    options: { company: { required: true }, app: { required: true } },
    prepare(v) {
      const [company, app] = [nonEmpty(v, 'company'), nonEmpty(v, 'app')];
      return async ({ services }, io) => {
        await requireApp(services, company, app);
        await services.tokens.setAppDisabled(company, app, disabled);
        io.result(disabled ? 'disabled' : 'enabled');
      };
    },
  };
}

export function nonEmpty(v: Values, key: string): string {
  const value = v[key]?.trim();
  if (!value) throw new UsageError(`--${key} must not be empty`);
  return value;
}

function wholeNumber(text: string, key: string, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n > max) {
    throw new UsageError(`--${key} must be a whole number from 0 to ${max}, got "${text}"`);
  }
  return n;
}

export function scopeList(text: string): Scope[] {
  const given = text.split(',').map((s) => s.trim()).filter(Boolean);
  if (given.length === 1 && given[0] === 'all') return [...scopes];
  const unknown = given.filter((s) => !isScope(s));
  if (unknown.length > 0 || given.length === 0) {
    throw new UsageError(`unknown scope ${unknown.map((s) => `"${s}"`).join(', ') || '(none given)'}; scopes are: ${scopes.join(', ')} (or all)`);
  }
  return [...new Set(given as Scope[])];
}

/** An IANA zone as Intl knows it (the same names Postgres accepts), stored in its canonical spelling. */
function timeZone(zone: string): string {
  try {
    if (/^[+-]\d/.test(zone)) throw new RangeError('offset');
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    throw new UsageError(`--time-zone "${zone}" is not an IANA time zone (for example America/New_York, Europe/Lisbon, UTC)`);
  }
}

export async function requireCompany(services: Services, uid: string): Promise<void> {
  if (!(await services.company.exists(uid))) throw new CommandError(`unknown company ${uid}`);
}

async function requireApp(services: Services, companyUid: string, appUid: string): Promise<void> {
  if (!(await services.tokens.appExists(companyUid, appUid))) throw new CommandError(`unknown app ${appUid} in company ${companyUid}`);
}

/** The values of a `multiple` option, trimmed, empty ones refused. */
export function listOf(v: Values, key: string): string[] {
  const raw = v[key];
  if (raw === undefined) return [];
  const items = raw.split('\n').map((s) => s.trim());
  if (items.some((s) => s === '')) throw new UsageError(`--${key} must not be empty`);
  return items;
}
