/* The fault suite's settings (run.ts): sizes from FAULTS_* variables, limits and thresholds. */

const num = (name: string, def: number) => (process.env[name] ? Number(process.env[name]) : def);
export const SEED = num('FAULTS_SEED', Date.now() % 1_000_000);
export const PROPERTIES = num('FAULTS_PROPERTIES', 20);
export const BATCHES = num('FAULTS_BATCHES', 16);
export const STREAM_MS = num('FAULTS_STREAM_MS', 60_000);
export const WORKERS = 3;
export const MIN_ACCEPTED_DAYS = 20_000;
export const DRAIN_TIMEOUT_MS = 180_000;
export const WEBHOOK_SETTLE_TIMEOUT_MS = 120_000;
export const MESSAGE_SETTLE_TIMEOUT_MS = 120_000;
export const FEED_EVENT = 'calendar.days.changed';
export const WEBHOOK_EVENTS = ['calendar.request.finished', FEED_EVENT] as const;
/** The pause between one message to a guest being accepted and the next being sent. */
export const MESSAGE_EVERY_MS = 100;
export const MIN_ACCEPTED_MESSAGES = 100;
/** Properties without calendar control, proposed to and reviewed through the run; a proposal every this many ms. */
export const PROPOSAL_PROPERTIES = 3;
export const PROPOSAL_EVERY_MS = 500;
export const MIN_PROPOSALS = 20;
/** Hard stop for the whole run: a hang anywhere still ends well under 10 minutes. */
export const SUITE_TIMEOUT_MS = 8 * 60_000;
