import type { Child } from 'hono/jsx';
import type { ConsoleUser } from '../../shared/domain/accounts/index.js';
import { CSRF_FIELD } from './security.js';

/** What every page is rendered with: the signed-in user (if any) and the session's CSRF token. */
export interface PageContext {
  user: ConsoleUser | undefined;
  csrf: string;
  /** The path of this page, to mark its navigation link. */
  path: string;
}

/** The navigation: [path, label, owner only]. A new page adds its line here. */
export const NAVIGATION: readonly (readonly [string, string, boolean])[] = [
  ['/app/', 'Home', false],
  ['/app/properties', 'Properties', false],
  ['/app/requests', 'Requests', false],
  ['/app/proposals', 'Proposals', false],
  ['/app/reservation-requests', 'Reservation requests', false],
  ['/app/inbox', 'Inbox', false],
  ['/app/connected-apps', 'Connected apps', false],
  ['/app/webhooks', 'Webhooks', false],
  ['/app/developer-apps', 'Developer apps', true],
];

/** A form that posts with the session's CSRF token: every state-changing form of the console. */
export function Form(props: { ctx: PageContext; action: string; class?: string; confirm?: string; children?: Child }) {
  return (
    <form method="post" action={props.action} class={props.class} data-confirm={props.confirm}>
      <input type="hidden" name={CSRF_FIELD} value={props.ctx.csrf} />
      {props.children}
    </form>
  );
}

export function Layout(props: { ctx: PageContext; title: string; children?: Child }) {
  const { user, path } = props.ctx;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title} · property-ops</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="/app/static/console.css" />
        <script src="/app/static/console.js" defer></script>
      </head>
      <body>
        <header class="top">
          <a class="brand" href="/app/">
            property-ops
          </a>
          {user && (
            <nav aria-label="Console">
              {NAVIGATION.filter(([, , ownerOnly]) => !ownerOnly || user.role === 'owner').map(([href, label]) => (
                <a href={href} aria-current={href === path ? 'page' : undefined}>
                  {label}
                </a>
              ))}
            </nav>
          )}
          {user && (
            <div class="who">
              <span>
                {user.name} · {user.companyName} ({user.role})
              </span>
              <Form ctx={props.ctx} action="/app/logout" class="inline">
                <button type="submit">Sign out</button>
              </Form>
            </div>
          )}
        </header>
        <main>{props.children}</main>
      </body>
    </html>
  );
}

/** A page that says what went wrong (no stack, no internals). */
export function MessagePage(props: { ctx: PageContext; title: string; message: string }) {
  return (
    <Layout ctx={props.ctx} title={props.title}>
      <h1>{props.title}</h1>
      <p class="error">{props.message}</p>
    </Layout>
  );
}
