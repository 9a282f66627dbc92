import { hashPassword } from '../../shared/domain/accounts/index.js';
import { insertUser } from '../../shared/domain/accounts/index.js';
import type { Db } from '../../shared/infra/db/client.js';
import type { UserRole } from '../../shared/infra/db/schema/index.js';
import { newUid } from '../../shared/infra/ids.js';

/*
 * The console as a browser without JavaScript meets it, over plain HTTP: a cookie jar, redirects
 * not followed (the test reads each one), the CSRF token read from the page's forms.
 */

export async function createUser(
  db: Db,
  companyUid: string,
  o: { role?: UserRole; email?: string; password?: string; name?: string } = {},
): Promise<{ uid: string; email: string; password: string }> {
  const email = o.email ?? `${newUid('u').toLowerCase()}@example.test`;
  const password = o.password ?? 'correct horse battery staple';
  const uid = await insertUser(db, { companyUid, email, name: o.name ?? 'Test User', role: o.role ?? 'owner', passwordHash: await hashPassword(password) });
  return { uid, email, password };
}

export interface Page {
  status: number;
  headers: Headers;
  text: string;
  /** Location of a redirect, absolute. */
  location: string | undefined;
}

export class ConsoleClient {
  readonly cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const [name, value] = [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()];
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(method: string, path: string, form?: Record<string, string>, headers: Record<string, string> = {}): Promise<Page> {
    const res = await fetch(path.startsWith('http') ? path : this.baseUrl + path, {
      method,
      redirect: 'manual',
      headers: {
        ...(this.cookies.size ? { cookie: this.cookieHeader() } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    this.keep(res);
    const loc = res.headers.get('location');
    return { status: res.status, headers: res.headers, text: await res.text(), location: loc ? new URL(loc, this.baseUrl).toString() : undefined };
  }

  get(path: string): Promise<Page> {
    return this.request('GET', path);
  }

  post(path: string, form: Record<string, string>): Promise<Page> {
    return this.request('POST', path, form);
  }

  /** A page's form fields (hidden ones included) by name: the CSRF token, next, the consent's fields. */
  static fields(html: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const m of html.matchAll(/<input[^>]*>/g)) {
      const name = /name="([^"]*)"/.exec(m[0])?.[1];
      const value = /value="([^"]*)"/.exec(m[0])?.[1];
      if (name && value !== undefined) out[name] = value.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
    }
    return out;
  }

  /** The CSRF token of a page (fails naming the page when it has none). */
  async csrf(path = '/app/login.html'): Promise<string> {
    const page = await this.get(path);
    const token = ConsoleClient.fields(page.text)._csrf;
    if (!token) throw new Error(`no _csrf field on ${path} (status ${page.status}):\n${page.text.slice(0, 500)}`);
    return token;
  }

  /** Signs in through the form; returns the answer to the POST. */
  async signIn(email: string, password: string, next?: string): Promise<Page> {
    const page = await this.get(`/app/login.html${next ? `?next=${encodeURIComponent(next)}` : ''}`);
    const fields = ConsoleClient.fields(page.text);
    return this.post('/app/login.html', { ...fields, email, password });
  }
}
