import { TokensService } from '../domain/auth/tokens.service.js';
import { BookingsService } from '../domain/bookings/bookings.service.js';
import { CalendarService } from '../domain/calendar/calendar.service.js';
import type { RequestWaitsOptions } from '../domain/calendar/request-waits.js';
import { CompanyService } from '../domain/company/company.service.js';
import { DirectBookingsService } from '../domain/direct-bookings/direct-bookings.service.js';
import { ListingsService } from '../domain/listings/listings.service.js';
import { PeopleService } from '../domain/people/people.service.js';
import { PropertiesService } from '../domain/properties/property.service.js';
import { RetentionService } from '../domain/retention/retention.service.js';
import { TasksService } from '../domain/tasks/tasks.service.js';
import { TeamMembersService } from '../domain/team-members/team-members.service.js';
import { WebhooksService } from '../domain/webhooks/webhook.service.js';
import type { Infra } from '../infra/infra.js';

/** One service per noun: the public surface of the domain, as the API, the worker and the CLI use it. */
export interface Services {
  bookings: BookingsService;
  calendar: CalendarService;
  company: CompanyService;
  directBookings: DirectBookingsService;
  listings: ListingsService;
  people: PeopleService;
  properties: PropertiesService;
  retention: RetentionService;
  tasks: TasksService;
  teamMembers: TeamMembersService;
  tokens: TokensService;
  webhooks: WebhooksService;
}

export interface ServiceOptions {
  /** The long-poll hub's safety re-check; tests lengthen it. */
  requestWaits?: RequestWaitsOptions;
}

/** Builds every service over one Infra; a service that needs another gets it here, explicitly. */
export function createServices(infra: Infra, opts: ServiceOptions = {}): Services {
  const properties = new PropertiesService(infra);
  return {
    bookings: new BookingsService(infra),
    calendar: new CalendarService(infra, properties, undefined, opts.requestWaits),
    company: new CompanyService(infra),
    directBookings: new DirectBookingsService(infra, properties),
    listings: new ListingsService(infra),
    people: new PeopleService(infra),
    properties,
    retention: new RetentionService(infra),
    tasks: new TasksService(infra),
    teamMembers: new TeamMembersService(infra),
    tokens: new TokensService(infra),
    webhooks: new WebhooksService(infra),
  };
}
