import { BookingExtrasService, bookingExtrasRepository } from '../domain/booking-extras/index.js';
import { AccountsService, usersRepository } from '../domain/accounts/index.js';
import { OAuthService, oauthRepository } from '../domain/oauth/index.js';
import { TokensService, tokenRepository } from '../domain/auth/index.js';
import { BookingsService, bookingsRepository } from '../domain/bookings/index.js';
import { CalendarService, calendarRepository } from '../domain/calendar/index.js';
import { ChangesService, changesRepository } from '../domain/changes/index.js';
import { CompanyService, companyRepository } from '../domain/company/index.js';
import {
  CalendarChangeService,
  ConsoleDayService,
  ConsoleService,
  calendarChangeRepository,
  consoleDayRepository,
  consoleRepository,
} from '../domain/console/index.js';
import { DirectBookingsService, directBookingsRepository } from '../domain/direct-bookings/index.js';
import {
  ListingContentService,
  ListingStatusService,
  ListingsService,
  listingContentRepository,
  listingStatusRepository,
  listingsRepository,
} from '../domain/listings/index.js';
import { DoorCodesService, doorCodesRepository } from '../domain/door-codes/index.js';
import { ConnectorsService, MessagingService, connectorsRepository, messagingRepository } from '../domain/messaging/index.js';
import { NotificationsService, notificationsRepository } from '../domain/notifications/index.js';
import { PeopleService, peopleRepository } from '../domain/people/index.js';
import { PropertiesService, propertyRepository } from '../domain/properties/index.js';
import { ProposalsService, proposalsRepository } from '../domain/proposals/index.js';
import { ReportsService, reportsRepository } from '../domain/reports/index.js';
import { ReservationRequestsService, reservationRequestsRepository } from '../domain/reservation-requests/index.js';
import { RetentionService, retentionRepository } from '../domain/retention/index.js';
import { TasksService, tasksRepository } from '../domain/tasks/index.js';
import { TeamMembersService, teamMembersRepository } from '../domain/team-members/index.js';
import { TransferService, transferRepository } from '../domain/transfer/index.js';
import { WebhookSettingsService, WebhooksService, webhookRepository } from '../domain/webhooks/index.js';
import type { Infra } from '../infra/infra.js';
import { changeReaders } from './change-readers.js';
import type { RequestWaitsOptions } from '../platform/long-poll/index.js';
import { RequestPipeline, requestsRepository } from '../platform/requests/index.js';
import type { KeptConnections } from '../platform/outbound-http/index.js';

/** One service per noun: the public surface of the domain, as the API, the worker and the CLI use it. */
export interface Services {
  accounts: AccountsService;
  oauth: OAuthService;
  bookings: BookingsService;
  calendar: CalendarService;
  changes: ChangesService;
  company: CompanyService;
  console: ConsoleService;
  consoleDay: ConsoleDayService;
  calendarChange: CalendarChangeService;
  directBookings: DirectBookingsService;
  doorCodes: DoorCodesService;
  bookingExtras: BookingExtrasService;
  listingContent: ListingContentService;
  listings: ListingsService;
  listingStatus: ListingStatusService;
  messaging: MessagingService;
  connectors: ConnectorsService;
  notifications: NotificationsService;
  people: PeopleService;
  properties: PropertiesService;
  proposals: ProposalsService;
  reports: ReportsService;
  /** The durable request pipeline (calendar days, listing statuses): get-request-status, the sweep, final failures. */
  requests: RequestPipeline;
  reservationRequests: ReservationRequestsService;
  retention: RetentionService;
  tasks: TasksService;
  teamMembers: TeamMembersService;
  tokens: TokensService;
  transfer: TransferService;
  webhooks: WebhooksService;
  webhookSettings: WebhookSettingsService;
}

export interface ServiceOptions {
  /** The long-poll hub's safety re-check; tests lengthen it. */
  requestWaits?: RequestWaitsOptions;
  /** The runtime's kept connections to receivers (webhook deliveries, channel connectors). */
  connections?: KeptConnections;
}

/**
 * The repositories the services are given: each built once, here (they hold no state; a test may
 * build a service over one of its own).
 */
const repositories = {
  accounts: usersRepository,
  bookingExtras: bookingExtrasRepository,
  bookings: bookingsRepository,
  calendar: calendarRepository,
  calendarChange: calendarChangeRepository,
  changes: changesRepository,
  company: companyRepository,
  connectors: connectorsRepository,
  console: consoleRepository,
  consoleDay: consoleDayRepository,
  directBookings: directBookingsRepository,
  doorCodes: doorCodesRepository,
  listingContent: listingContentRepository,
  listings: listingsRepository,
  listingStatus: listingStatusRepository,
  messaging: messagingRepository,
  notifications: notificationsRepository,
  oauth: oauthRepository,
  people: peopleRepository,
  properties: propertyRepository,
  proposals: proposalsRepository,
  reports: reportsRepository,
  requests: requestsRepository,
  reservationRequests: reservationRequestsRepository,
  retention: retentionRepository,
  tasks: tasksRepository,
  teamMembers: teamMembersRepository,
  tokens: tokenRepository,
  transfer: transferRepository,
  webhooks: webhookRepository,
};

/** Builds every service over one Infra; a service that needs another, or a repository, gets it here, explicitly. */
export function createServices(infra: Infra, opts: ServiceOptions = {}): Services {
  const r = repositories;
  const properties = new PropertiesService(infra, r.properties);
  const requests = new RequestPipeline(infra, r.requests, opts.requestWaits);
  const calendar = new CalendarService(infra, properties, r.calendar, requests);
  const bookings = new BookingsService(infra, r.bookings);
  return {
    accounts: new AccountsService(infra, r.accounts),
    oauth: new OAuthService(infra, r.oauth),
    bookings,
    calendar,
    changes: new ChangesService(infra, changeReaders, r.changes),
    company: new CompanyService(infra, r.company),
    console: new ConsoleService(infra, r.console),
    consoleDay: new ConsoleDayService(infra, bookings, r.consoleDay),
    calendarChange: new CalendarChangeService(infra, calendar, r.calendarChange),
    directBookings: new DirectBookingsService(infra, properties, r.directBookings),
    doorCodes: new DoorCodesService(infra, r.doorCodes),
    bookingExtras: new BookingExtrasService(infra, r.bookingExtras),
    listingContent: new ListingContentService(infra, r.listingContent),
    listings: new ListingsService(infra, r.listings),
    listingStatus: new ListingStatusService(infra, requests, properties, r.listingStatus),
    messaging: new MessagingService(infra, r.messaging, { connections: opts.connections }),
    connectors: new ConnectorsService(infra, r.connectors),
    notifications: new NotificationsService(infra, r.notifications),
    people: new PeopleService(infra, r.people),
    properties,
    proposals: new ProposalsService(infra, calendar, requests, properties, r.proposals),
    requests,
    reports: new ReportsService(infra, bookings, r.reports),
    reservationRequests: new ReservationRequestsService(infra, bookings, r.reservationRequests),
    retention: new RetentionService(infra, r.retention),
    tasks: new TasksService(infra, r.tasks),
    teamMembers: new TeamMembersService(infra, r.teamMembers),
    tokens: new TokensService(infra, r.tokens),
    // A new company's import (the demo seed) writes the company's row in its own transaction.
    transfer: new TransferService(infra, r.transfer, r.company),
    webhooks: new WebhooksService(infra, changeReaders, r.webhooks, opts.connections),
    webhookSettings: new WebhookSettingsService(infra, r.webhooks),
  };
}
