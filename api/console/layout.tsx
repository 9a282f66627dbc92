import type { Child } from 'hono/jsx';
import type { ConsoleUser } from '../../shared/domain/accounts/index.js';
import type { WaitingCounts } from '../../shared/domain/console/index.js';
import { CSRF_FIELD } from './security.js';

/** What every page is rendered with: the signed-in user (if any) and the session's CSRF token. */
export interface PageContext {
  user: ConsoleUser | undefined;
  csrf: string;
  /** The path of this page, to mark its navigation link. */
  path: string;
  /** What waits, counted beside the navigation's links (read by requireUser on every GET). */
  waiting?: WaitingCounts;
}

/** The navigation: [path, label, owner only]. A new page adds its line here. */
export const NAVIGATION: readonly (readonly [string, string, boolean])[] = [
  ['/app/', 'Today', false],
  ['/app/bookings', 'Bookings', false],
  ['/app/tasks', 'Tasks', false],
  ['/app/properties', 'Properties', false],
  ['/app/calendar', 'Calendar', false],
  ['/app/requests', 'Requests', false],
  ['/app/proposals', 'Proposals', false],
  ['/app/reservation-requests', 'Reservation requests', false],
  ['/app/inbox', 'Inbox', false],
  ['/app/connected-apps', 'Connected apps', false],
  ['/app/webhooks', 'Webhooks', false],
  ['/app/developer-apps', 'Developer apps', true],
  ['/app/settings', 'Settings', false],
  ['/app/company-settings', 'Company settings', true],
];

/** Which count of WaitingCounts a navigation link shows, and what it counts (issue 41). */
export const NAVIGATION_COUNTS: Readonly<Record<string, readonly [keyof WaitingCounts, string]>> = {
  '/app/tasks': ['tasks_unassigned_today', 'unassigned today'],
  '/app/proposals': ['proposals', 'waiting'],
  '/app/reservation-requests': ['reservation_requests', 'waiting'],
  '/app/inbox': ['threads', 'waiting for a reply'],
  '/app/webhooks': ['webhooks_failing', 'failing'],
};

/**
 * A navigation link, with the count of what waits behind it beside it (outside the link, so the
 * link's name stays its label and its visible text: axe's label-content-name-mismatch).
 */
function NavLink(props: { href: string; label: string; current: boolean; waiting: WaitingCounts | undefined }) {
  const counted = NAVIGATION_COUNTS[props.href];
  const n = counted && props.waiting ? props.waiting[counted[0]] : 0;
  const link = (
    <a href={props.href} aria-current={props.current ? 'page' : undefined}>
      {props.label}
    </a>
  );
  if (!counted || n === 0) return link;
  return (
    <span class="nav-item">
      {link}
      <span class="count">
        {n}
        <span class="sr-only"> {counted[1]}</span>
      </span>
    </span>
  );
}

/** The links a user may follow, the current page marked, each with its count of what waits. */
function NavLinks(props: { user: ConsoleUser; path: string; waiting: WaitingCounts | undefined }) {
  return (
    <>
      {NAVIGATION.filter(([, , ownerOnly]) => !ownerOnly || props.user.role === 'owner').map(([href, label]) => (
        <NavLink href={href} label={label} current={href === props.path} waiting={props.waiting} />
      ))}
    </>
  );
}

/** A form that posts with the session's CSRF token: every state-changing form of the console. */
export function Form(props: { ctx: PageContext; action: string; class?: string; confirm?: string; children?: Child }) {
  return (
    <form method="post" action={props.action} class={props.class} data-confirm={props.confirm}>
      <input type="hidden" name={CSRF_FIELD} value={props.ctx.csrf} />
      {props.children}
    </form>
  );
}

/** A button for what cannot be undone (revoke, uninstall, decline): the browser asks `confirm` before it posts. */
export function DangerButton(props: { ctx: PageContext; action: string; confirm: string; text: string; inline?: true; label?: string }) {
  return (
    <Form ctx={props.ctx} action={props.action} class={props.inline && 'inline'} confirm={props.confirm}>
      <button type="submit" class="danger" aria-label={props.label}>
        {props.text}
      </button>
    </Form>
  );
}

/** The line that says a change was made (a screen reader announces it); nothing without a text. */
export function Notice(props: { text: string | undefined }) {
  return props.text ? (
    <p class="notice" role="status">
      {props.text}
    </p>
  ) : null;
}

/** A page whose heading is its title, with the notice of the change just made (if any) under it. */
export function TitledPage(props: { ctx: PageContext; title: string; notice: string | undefined; children?: Child }) {
  return (
    <Layout ctx={props.ctx} title={props.title}>
      <h1>{props.title}</h1>
      <Notice text={props.notice} />
      {props.children}
    </Layout>
  );
}

/** The fixed notice a page's `?done=` names after a change (POST, redirect, GET); none for a key the page does not know. */
export function noticeOf<K extends string>(notices: Readonly<Record<K, string>>, done: unknown): string | undefined {
  return typeof done === 'string' && Object.hasOwn(notices, done) ? notices[done as K] : undefined;
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
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <a class="brand" href="/app/">
            property-ops
          </a>
          {/* Wide screens: the links in a row. A phone: the same links behind a Menu (a details
              element: opens by click, tap or keyboard with no script). CSS shows one of the two. */}
          {user && (
            <nav class="wide" aria-label="Console">
              <NavLinks user={user} path={path} waiting={props.ctx.waiting} />
            </nav>
          )}
          {user && (
            <details class="menu">
              <summary>Menu</summary>
              <nav aria-label="Menu">
                <NavLinks user={user} path={path} waiting={props.ctx.waiting} />
              </nav>
            </details>
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
        <main id="main" tabindex={-1}>
          {props.children}
        </main>
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
