import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Services } from '../../shared/app/services.js';
import { scopes } from '../../shared/domain/auth/index.js';
import type { Config } from '../../shared/infra/config.js';
import type { Logger } from '../../shared/infra/logger.js';
import { prepareDemoOwner, type DemoSignIn } from './demo-owner.js';
import { seedDemo, type DemoServices } from './seed.js';

/*
 * The demo `npm start` shows on a fresh machine. Only a hash of a token is stored, so the plain demo
 * token is kept in DATA_DIR/demo-token (mode 0600, next to the embedded database, which holds the
 * same data anyway): every start prints the same token, and a token that stopped working (revoked,
 * app disabled, another database) is replaced by a fresh one.
 */

/** Fixed uid, so a later start finds the demo company it seeded. */
export const DEMO_COMPANY_UID = 'co_demo';

export function demoTokenPath(dataDir: string): string {
  return path.join(dataDir, 'demo-token');
}

/** SEED_DEMO=auto seeds (and prints a token) only for the embedded database; true always; false never. */
export function demoWanted(setting: Config['seedDemo'], embedded: boolean): boolean {
  switch (setting) {
    case 'true':
      return true;
    case 'false':
      return false;
    case 'auto':
      return embedded;
  }
}

export interface DemoAccess {
  companyUid: string;
  token: string;
  /** The demo owner's console sign-in. */
  signIn?: DemoSignIn;
  /** True when this call created the demo company. */
  seeded: boolean;
}

/** What the demo is prepared through: the seed's services, the company's, the console users'. */
export type DemoStartServices = DemoServices & Pick<Services, 'company' | 'accounts'>;

/** The demo company (seeded if needed), a working token with every scope, and the demo owner's sign-in. */
export async function prepareDemo(services: DemoStartServices, opts: { dataDir: string; logger: Logger }): Promise<DemoAccess> {
  const access = await prepareDemoToken(services, opts);
  return { ...access, signIn: await prepareDemoOwner(services, access.companyUid, opts.dataDir) };
}

/** Seeds the demo company unless it exists, and returns a working token with every scope for it. */
async function prepareDemoToken(services: DemoStartServices, opts: { dataDir: string; logger: Logger }): Promise<DemoAccess> {
  const file = demoTokenPath(opts.dataDir);
  const demoExists = () => services.company.exists(DEMO_COMPANY_UID);
  if (!(await demoExists())) {
    try {
      const started = performance.now();
      const demo = await seedDemo(services, { companyUid: DEMO_COMPANY_UID });
      saveToken(file, demo.token);
      opts.logger.info(
        { companyUid: DEMO_COMPANY_UID, bookings: demo.bookings, tasks: demo.tasks, ms: Math.round(performance.now() - started) },
        'demo company seeded',
      );
      return { companyUid: DEMO_COMPANY_UID, token: demo.token, seeded: true };
    } catch (err) {
      // Another process sharing the database seeded it first: use theirs.
      if (!(await demoExists())) throw err;
    }
  }
  const saved = readToken(file);
  if (saved) {
    const principal = await services.tokens.find(saved);
    if (principal && principal.companyUid === DEMO_COMPANY_UID && !principal.revoked && !principal.appDisabled) {
      return { companyUid: DEMO_COMPANY_UID, token: saved, seeded: false };
    }
  }
  const issued = await services.tokens.issue(DEMO_COMPANY_UID, { scopes, appName: 'Demo app' });
  saveToken(file, issued.token);
  opts.logger.info({ companyUid: DEMO_COMPANY_UID, tokenUid: issued.tokenUid }, 'issued a new demo token');
  return { companyUid: DEMO_COMPANY_UID, token: issued.token, seeded: false };
}

/** The plain-text lines a person starting the service reads: the token and a request to try. */
export function demoBanner(token: string, port: number, host: string, signIn?: DemoSignIn, client?: { clientId: string; redirectUri: string }): string {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const base = `http://${shown}:${port}`;
  return [
    '',
    `Demo token: ${token}`,
    'Try it:',
    `curl '${base}/api/v1/bookings?access_token=${encodeURIComponent(token)}'`,
    ...(signIn ? ['', `Console: ${base}/app/login.html`, `Demo sign-in: ${signIn.email} ${signIn.password}`] : []),
    ...(client
      ? [
          'Connect an app (OAuth), then exchange the code from the redirect:',
          `${base}/app/auth.html?client_id=${client.clientId}&redirect_uri=${encodeURIComponent(client.redirectUri)}&scope=messaging,tasks&state=xyz`,
          `curl '${base}/auth/token?grant_type=authorization_code&client_id=${client.clientId}&redirect_uri=${encodeURIComponent(client.redirectUri)}&code=CODE'`,
        ]
      : []),
    '',
    '',
  ].join('\n');
}

function readToken(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

function saveToken(file: string, token: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  // writeFileSync applies the mode only when it creates the file.
  chmodSync(file, 0o600);
}
