import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Services } from '../../shared/app/services.js';
import { generatePassword, verifyPassword } from '../../shared/domain/accounts/index.js';
import { scopes } from '../../shared/domain/auth/index.js';

/*
 * The demo owner `npm start` prints beside the demo token (docs/api.md "Accounts and the
 * console"): its password is kept in DATA_DIR/demo-password (mode 0600), so every start prints the
 * same sign-in; a password that no longer matches (reset, another database) is replaced.
 */

export const DEMO_OWNER_EMAIL = 'owner@demo.example';

export function demoPasswordPath(dataDir: string): string {
  return path.join(dataDir, 'demo-password');
}

export interface DemoSignIn {
  email: string;
  password: string;
}

export async function prepareDemoOwner(services: Pick<Services, 'accounts'>, companyUid: string, dataDir: string): Promise<DemoSignIn> {
  const { accounts } = services;
  const file = demoPasswordPath(dataDir);
  let saved: string | undefined;
  try {
    saved = readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    saved = undefined;
  }
  const user = await accounts.findByEmail(DEMO_OWNER_EMAIL);
  if (user && saved && !user.disabled && (await verifyPassword(user.passwordHash, saved))) return { email: DEMO_OWNER_EMAIL, password: saved };
  const password = generatePassword();
  const reset = async () => {
    await accounts.resetPassword(DEMO_OWNER_EMAIL, password);
    await accounts.setDisabled(DEMO_OWNER_EMAIL, false);
  };
  if (user) await reset();
  else {
    try {
      await accounts.create({ companyUid, email: DEMO_OWNER_EMAIL, name: 'Demo Owner', role: 'owner', password });
    } catch (err) {
      // Another process sharing the database made it first: set the password this one prints.
      if (!(await accounts.findByEmail(DEMO_OWNER_EMAIL))) throw err;
      await reset();
    }
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { email: DEMO_OWNER_EMAIL, password };
}

/** The demo developer app: a client with a localhost redirect URI, so a newcomer can walk the OAuth flow. */
export const DEMO_CLIENT_ID = 'cli_demo';
/** The console's demo callback page (api/console/pages/oauth-demo.tsx): it shows the code and the exchange. */
export const demoRedirectUri = (port: number) => `http://localhost:${port}/app/oauth-demo/callback`;

export async function prepareDemoClient(services: Pick<Services, 'oauth'>, port: number): Promise<{ clientId: string; redirectUri: string }> {
  const redirectUri = demoRedirectUri(port);
  await services.oauth.ensureClient({ clientId: DEMO_CLIENT_ID, name: 'Demo integration', redirectUris: [redirectUri], scopes: [...scopes] });
  return { clientId: DEMO_CLIENT_ID, redirectUri };
}
