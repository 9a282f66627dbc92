import { bookingObjects } from '../domain/bookings/index.js';
import { calendarDayObjects } from '../domain/calendar/index.js';
import type { ChangeReaders } from '../domain/changes/index.js';
import { listingObjects } from '../domain/listings/index.js';
import { messageObjects, threadObjects } from '../domain/messaging/index.js';
import { propertyObjects } from '../domain/properties/index.js';
import { taskObjects } from '../domain/tasks/index.js';

/**
 * The change feed's readers, one per kind, each the noun's own (its `*.objects.ts`): registered
 * here, at composition, so `changes` (and the webhook fan-out) depend on no noun.
 */
export const changeReaders: ChangeReaders = {
  objects: {
    booking: bookingObjects,
    task: taskObjects,
    property: propertyObjects,
    listing: listingObjects,
    thread: threadObjects,
    message: messageObjects,
  },
  days: calendarDayObjects,
};
