/*
 * The Postgres NOTIFY channels long polls wait on: one hub (hub.ts) per channel, the payload is the
 * key its waiters are registered under. Each channel is sent by a trigger or a statement named here.
 */

/** A calendar request (or listing-status request) became final; payload: its uid. Trigger of drizzle/0005. */
export const REQUEST_FINISHED_CHANNEL = 'calendar_request_finished';

/** A message became final (sent or error); payload: its uid. The message_finished_notify trigger (drizzle, i22). */
export const MESSAGE_FINISHED_CHANNEL = 'message_finished';

/** Changes of a company got feed positions (the stamper, at commit); payload: the company uid. */
export const CHANGES_STAMPED_CHANNEL = 'changes_stamped';

/** The longest a long poll holds its answer (`wait` of get-request-status and message-status). */
export const MAX_WAIT_SECONDS = 30;

/** Changes were recorded (a statement inserted into `changes`); empty payload. Trigger of drizzle/0029: wakes the workers' fan-out. */
export const CHANGES_RECORDED_CHANNEL = 'changes_recorded';
