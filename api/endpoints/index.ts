import { listBookings } from './bookings.endpoints.js';
import { getCalendarDataEndpoint, getRequestStatus, setCalendarBatch } from './calendar.endpoints.js';
import type { AnyEndpoint } from './define.js';
import { bookPropertyEndpoint, cancelBookingEndpoint } from './direct-bookings.endpoints.js';
import { getCompanyEndpoint, listGuests, listHosts, listListings, listTeamMembers } from './inventory.endpoints.js';
import { docs, livez, metrics, openapiJson, readyz } from './ops.endpoints.js';
import { getPropertyEndpoint, listProperties } from './property.endpoints.js';
import { listTasks, updateTaskEndpoint } from './tasks.endpoints.js';

/**
 * Every endpoint of the API, in the order of the document. The router and the OpenAPI document are
 * both built from this list: adding an endpoint is its definition plus one line here.
 */
export const endpoints: readonly AnyEndpoint[] = [
  listBookings,
  setCalendarBatch,
  getRequestStatus,
  getCalendarDataEndpoint,
  listTasks,
  updateTaskEndpoint,
  listProperties,
  getPropertyEndpoint,
  listListings,
  listTeamMembers,
  getCompanyEndpoint,
  listHosts,
  listGuests,
  bookPropertyEndpoint,
  cancelBookingEndpoint,
  livez,
  readyz,
  metrics,
  openapiJson,
  docs,
];
