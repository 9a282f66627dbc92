import { BookingExtrasService } from '../domain/booking-extras/index.js';
import { ListingContentService } from '../domain/listings/index.js';
import { AccountsService } from '../domain/accounts/index.js';
import { OAuthService } from '../domain/oauth/index.js';
import { TokensService } from '../domain/auth/index.js';
import { BookingsService } from '../domain/bookings/index.js';
import { CalendarService } from '../domain/calendar/index.js';
import { ChangesService } from '../domain/changes/index.js';
import { CompanyService } from '../domain/company/index.js';
import { CalendarChangeService, ConsoleDayService, ConsoleService } from '../domain/console/index.js';
import { DirectBookingsService } from '../domain/direct-bookings/index.js';
import { ListingStatusService, ListingsService } from '../domain/listings/index.js';
import { DoorCodesService } from '../domain/door-codes/index.js';
import { ConnectorsService, MessagingService } from '../domain/messaging/index.js';
import { NotificationsService } from '../domain/notifications/index.js';
import { PeopleService } from '../domain/people/index.js';
import { PropertiesService } from '../domain/properties/index.js';
import { ProposalsService } from '../domain/proposals/index.js';
import { ReportsService } from '../domain/reports/index.js';
import { ReservationRequestsService } from '../domain/reservation-requests/index.js';
import { RetentionService } from '../domain/retention/index.js';
import { TasksService } from '../domain/tasks/index.js';
import { TeamMembersService } from '../domain/team-members/index.js';
import { TransferService } from '../domain/transfer/index.js';
import { WebhookSettingsService, WebhooksService } from '../domain/webhooks/index.js';
import type { Infra } from '../infra/infra.js';
import { changeReaders } from './change-readers.js';
import type { RequestWaitsOptions } from '../platform/long-poll/index.js';

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
}

/** Builds every service over one Infra; a service that needs another gets it here, explicitly. */
export function createServices(infra: Infra, opts: ServiceOptions = {}): Services {
  const properties = new PropertiesService(infra);
  const calendar = new CalendarService(infra, properties, undefined, opts.requestWaits);
  const bookings = new BookingsService(infra);
  return {
    accounts: new AccountsService(infra),
    oauth: new OAuthService(infra),
    bookings,
    calendar,
    changes: new ChangesService(infra, changeReaders),
    company: new CompanyService(infra),
    console: new ConsoleService(infra),
    consoleDay: new ConsoleDayService(infra),
    calendarChange: new CalendarChangeService(infra, calendar),
    directBookings: new DirectBookingsService(infra, properties),
    doorCodes: new DoorCodesService(infra),
    bookingExtras: new BookingExtrasService(infra),
    listingContent: new ListingContentService(infra),
    listings: new ListingsService(infra),
    listingStatus: new ListingStatusService(infra, calendar, properties),
    messaging: new MessagingService(infra),
    connectors: new ConnectorsService(infra),
    notifications: new NotificationsService(infra),
    people: new PeopleService(infra),
    properties,
    proposals: new ProposalsService(infra, calendar, properties),
    reports: new ReportsService(infra, bookings),
    reservationRequests: new ReservationRequestsService(infra, bookings),
    retention: new RetentionService(infra),
    tasks: new TasksService(infra),
    teamMembers: new TeamMembersService(infra),
    tokens: new TokensService(infra),
    transfer: new TransferService(infra),
    webhooks: new WebhooksService(infra, changeReaders),
    webhookSettings: new WebhookSettingsService(infra),
  };
}
