import type { AppContext } from '../shared/app/context.js';
import { applyCalendarRequestHandler } from './handlers/apply-calendar-request.js';
import { applyListingStatusHandler } from './handlers/apply-listing-status.js';
import { deliverWebhookHandler, fanOutWebhookEventsHandler } from './handlers/deliver-webhook.js';
import { sendMessageHandler } from './handlers/send-message.js';
import { maintenanceHandlers } from './handlers/maintenance.js';
import type { JobHandlers } from './job-handler.js';

/** The handler of every registered job (the type requires one per name in shared/infra/queue/registry.ts). */
export function jobHandlers(ctx: AppContext): JobHandlers {
  return {
    'apply-calendar-request': applyCalendarRequestHandler(ctx),
    'apply-listing-status': applyListingStatusHandler(ctx),
    'deliver-webhook': deliverWebhookHandler(ctx),
    'fan-out-webhook-events': fanOutWebhookEventsHandler(ctx),
    'send-message': sendMessageHandler(ctx),
    ...maintenanceHandlers(ctx),
  };
}
