import { setPropertyCalendarAvailability } from './availability.endpoints.js';
import { setCalendarData } from './calendar-range.endpoints.js';
import { setListingStatus } from './listing-status.endpoints.js';
import { listBookings } from './bookings.endpoints.js';
import { getCalendarData, getRequestStatus, setCalendarBatch } from './calendar.endpoints.js';
import { getChanges } from './changes.endpoints.js';
import type { AnyEndpoint } from './define.js';
import { bookProperty, cancelBooking, quote } from './direct-bookings.endpoints.js';
import { receiveChannelMessage } from './channels.endpoints.js';
import { getCompany, listGuests, listHosts, listListings, listTeamMembers } from './inventory.endpoints.js';
import { getThreads, messageBookingGuest, messageStatus } from './messaging.endpoints.js';
import { docs, livez, metrics, openapiJson, readyz } from './ops.endpoints.js';
import { getProperty, listProperties } from './property.endpoints.js';
import { proposeCalendarBatch, proposeCalendarData, setPropertyCalendarControl } from './proposals.endpoints.js';
import { setBookingDoorCode, setPropertyDoorCode } from './door-codes.endpoints.js';
import { acceptReservation, declineReservation } from './reservation-requests.endpoints.js';
import { reservationReportCsv, tasksReportCsv } from './reports.endpoints.js';
import { listTasks, updateTask } from './tasks.endpoints.js';
import { webhookEndpoints } from './webhooks.endpoints.js';
import { igmsV2Endpoints } from './igms-v2.endpoints.js';

/**
 * Every endpoint of the API, in the order of the document. The router and the OpenAPI document are
 * both built from this list: adding an endpoint is its definition plus one line here.
 *
 * Names: an endpoint's const is its operationId (listBookings, getProperty, setCalendarBatch...).
 * Repository functions never take those names: they say the statement (selectBookings,
 * selectProperty, insertRequests...). A service's list method takes (companyUid, query[, scopes]).
 */
export const endpoints: readonly AnyEndpoint[] = [
  listBookings,
  setCalendarBatch,
  getRequestStatus,
  getCalendarData,
  setPropertyCalendarAvailability,
  setCalendarData,
  setPropertyCalendarControl,
  proposeCalendarBatch,
  proposeCalendarData,
  listTasks,
  updateTask,
  listProperties,
  getProperty,
  listListings,
  setListingStatus,
  listTeamMembers,
  getCompany,
  listHosts,
  listGuests,
  bookProperty,
  quote,
  cancelBooking,
  getThreads,
  messageBookingGuest,
  messageStatus,
  receiveChannelMessage,
  acceptReservation,
  declineReservation,
  getChanges,
  ...webhookEndpoints,
  setBookingDoorCode,
  setPropertyDoorCode,
  ...igmsV2Endpoints,
  reservationReportCsv,
  tasksReportCsv,
  livez,
  readyz,
  metrics,
  openapiJson,
  docs,
];
