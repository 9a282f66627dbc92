import { setPropertyCalendarAvailability } from './availability.endpoints.js';
import { listBookings } from './bookings.endpoints.js';
import { getCalendarData, getRequestStatus, setCalendarBatch } from './calendar.endpoints.js';
import type { AnyEndpoint } from './define.js';
import { bookProperty, cancelBooking } from './direct-bookings.endpoints.js';
import { getCompany, listGuests, listHosts, listListings, listTeamMembers } from './inventory.endpoints.js';
import { docs, livez, metrics, openapiJson, readyz } from './ops.endpoints.js';
import { getProperty, listProperties } from './property.endpoints.js';
import { listTasks, updateTask } from './tasks.endpoints.js';

/**
 * Every endpoint of the API, in the order of the document. The router and the OpenAPI document are
 * both built from this list: adding an endpoint is its definition plus one line here.
 */
export const endpoints: readonly AnyEndpoint[] = [
  listBookings,
  setCalendarBatch,
  getRequestStatus,
  getCalendarData,
  setPropertyCalendarAvailability,
  listTasks,
  updateTask,
  listProperties,
  getProperty,
  listListings,
  listTeamMembers,
  getCompany,
  listHosts,
  listGuests,
  bookProperty,
  cancelBooking,
  livez,
  readyz,
  metrics,
  openapiJson,
  docs,
];
