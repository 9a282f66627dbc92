import type { Infra } from '../infra/infra.js';
import type { Services } from './services.js';

/**
 * What the API, the worker and the CLI are handed: the runtime's infrastructure and its services
 * (shared/app/runtime.ts builds it). Handlers call `ctx.services.<noun>`.
 */
export interface AppContext extends Infra {
  services: Services;
}
