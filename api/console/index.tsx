import path from 'node:path';
import express, { Router } from 'express';
import type { AppContext } from '../../shared/app/context.js';
import { readBody, readRequestLine, verifyFormEscapes } from './input-guard.js';
import { consoleErrors, notFoundPage } from './error-pages.js';
import { connectedAppsRoutes } from './pages/connected-apps.js';
import { consentRoutes } from './pages/consent.js';
import { developerAppsRoutes } from './pages/developer-apps.js';
import { developerAppErrorModeRoutes } from './pages/developer-apps-error-mode.js';
import { homeRoutes } from './pages/home.js';
import { inboxRoutes } from './pages/inbox.js';
import { loginRoutes } from './pages/login.js';
import { oauthDemoRoutes } from './pages/oauth-demo.js';
import { proposalsRoutes } from './pages/proposals.js';
import { propertiesRoutes } from './pages/properties.js';
import { dayEditorRoutes } from './pages/day-editor.js';
import { bookingFormRoutes } from './pages/booking-form.js';
import { calendarChangeRoutes } from './pages/calendar-change.js';
import { multiCalendarRoutes } from './pages/multi-calendar.js';
import { requestsRoutes } from './pages/requests.js';
import { reservationRequestsRoutes } from './pages/reservation-requests.js';
import { settingsRoutes } from './pages/settings.js';
import { webhooksRoutes } from './pages/webhooks.js';
import { companySettingsRoutes } from './pages/company-settings.js';
import { propertyMinPriceRoutes } from './pages/property-min-price.js';
import { bookingsRoutes } from './pages/bookings.js';
import { bookingRoutes } from './pages/booking.js';
import { tasksRoutes } from './pages/tasks.js';
import { taskEditRoutes } from './pages/task-edit.js';
import { consoleHeaders, csrfProtection, noStore } from './security.js';
import { absoluteExpiry, consoleSession } from './session.js';

/*
 * The console: server-rendered pages under /app/ (README "The console"). Order matters:
 * headers first (every answer, errors included, forbids framing and inline script), the static
 * files, then body, session, CSRF (every POST), then the pages. A page module exports a function
 * building its Router; list it in PAGES.
 */

export const CONSOLE_PATH = '/app';
export { browserHome } from './error-pages.js';

/** Every page module of the console; a new page adds its line. */
const PAGES: readonly ((ctx: AppContext) => Router)[] = [
  loginRoutes,
  homeRoutes,
  consentRoutes,
  connectedAppsRoutes,
  developerAppsRoutes,
  developerAppErrorModeRoutes,
  oauthDemoRoutes,
  propertiesRoutes,
  dayEditorRoutes,
  bookingFormRoutes,
  multiCalendarRoutes,
  calendarChangeRoutes,
  requestsRoutes,
  reservationRequestsRoutes,
  inboxRoutes,
  proposalsRoutes,
  webhooksRoutes,
  settingsRoutes,
  companySettingsRoutes,
  propertyMinPriceRoutes,
  bookingsRoutes,
  bookingRoutes,
  tasksRoutes,
  taskEditRoutes,
];

export function consoleRouter(ctx: AppContext): Router {
  const router = Router();
  router.use(consoleHeaders);
  // Every input is read before a page (or the static files) sees it: issue 39 M1.
  router.use(readRequestLine(ctx));
  router.use('/static', express.static(path.join(import.meta.dirname, 'static'), { index: false, fallthrough: false, maxAge: '1h' }));
  router.use(noStore);
  // A proposal's approval form has a field per ticked date (up to CALENDAR_MAX_DAYS): its own limit.
  router.use('/proposals', express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 1100, verify: verifyFormEscapes }));
  // A calendar change names up to 200 properties (the multi-calendar's ticked rows): its own limit.
  router.use('/calendar/change', express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 300, verify: verifyFormEscapes }));
  router.use(express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 100, verify: verifyFormEscapes }));
  router.use(express.json({ limit: '64kb' }));
  router.use(readBody(ctx));
  router.use(consoleSession(ctx), absoluteExpiry, csrfProtection);
  for (const page of PAGES) router.use(page(ctx));
  router.use(notFoundPage(ctx));
  router.use(consoleErrors(ctx));
  return router;
}
