import type { AppContext } from '../shared/app/context.js';
import { applyCalendarRequestHandler } from './handlers/apply-calendar-request.js';
import { deliverWebhookHandler } from './handlers/deliver-webhook.js';
import { maintenanceHandlers } from './handlers/maintenance.js';
import type { JobHandlers } from './job-handler.js';

/** The handler of every registered job (the type requires one per name in shared/infra/queue/registry.ts). */
export function jobHandlers(ctx: AppContext): JobHandlers {
  return {
    'apply-calendar-request': applyCalendarRequestHandler(ctx),
    'deliver-webhook': deliverWebhookHandler(ctx),
    ...maintenanceHandlers(ctx),
  };
}
