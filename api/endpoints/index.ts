import { listBookings } from './bookings.endpoints.js';
import { getCalendarDataEndpoint, getRequestStatus, setCalendarBatch } from './calendar.endpoints.js';
import type { AnyEndpoint } from './define.js';
import { docs, livez, metrics, openapiJson, readyz } from './ops.endpoints.js';
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
  livez,
  readyz,
  metrics,
  openapiJson,
  docs,
];
