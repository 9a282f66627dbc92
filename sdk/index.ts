/*
 * The property-ops SDK: a typed client generated from docs/openapi.json (sdk/schema.d.ts, by
 * `npm run sdk:generate`) with the helpers every integrator otherwise writes by hand. sdk/README.md
 * shows them at work.
 */
export { createPropertyOpsClient, type PropertyOpsClient, type PropertyOpsClientOptions } from './client.js';
export { ApiError, dataOf } from './errors.js';
export { paginate, paginateItems, type ItemOf } from './paginate.js';
export { submitAndWait, SubmitTimeoutError, type SubmitAndWaitOptions, type SubmitAndWaitResult } from './batches.js';
export { verifyWebhook, WebhookVerificationError, type VerifyWebhookInput, type WebhookEvent } from './webhooks.js';
export { retryingFetch, retryAfterMs, type RetryOptions } from './retry.js';
export type * from './types.js';
export type { components, operations, paths } from './schema.js';
