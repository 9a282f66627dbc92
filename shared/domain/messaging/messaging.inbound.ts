import { z } from 'zod';
import type { Db, Executor } from '../../infra/db/client.js';
import { notFound, shown } from '../../infra/errors.js';
import { recordChanges } from '../changes/index.js';
import { verifySignature } from '../../platform/outbound-http/index.js';
import { connectorsOfPlatform } from './connectors.repository.js';
import { messageText, utcDateParam, type MessageFile } from './messaging.schema.js';
import { findInboundTwin, insertMessage, lockThread } from './messages.repository.js';
import { threadOfBooking } from './threads.repository.js';

/*
 * Guest replies from channel connectors (docs/api.md "Inbound messages"): POST
 * /channels/{platform}/inbound, no token. The connector signs the raw body with its secret as
 * webhooks are signed (`X-Webhook-Signature: t=...,v1=...`); a timestamp further than the replay
 * window from now is refused like a bad signature. Which company it is: the one whose connector's
 * secret verifies the signature.
 *
 * A replay (the same body posted again inside the window), or a connector re-sending after a lost
 * answer (a fresh signature), appends nothing: a message is the same one when its thread, sent_dttm
 * and text are (decided: dedupe on content, not on the signature, so a re-signed retry is caught too).
 */

/** How far a signature's timestamp may be from now, either way (seconds). */
export const INBOUND_REPLAY_WINDOW_SECONDS = 300;
const MAX_FILES = 20;

const fileField = (max: number) => z.string({ error: 'must be a string' }).max(max, `must be at most ${max} characters`).nullish();

const inboundFileSchema = z
  .object({ type: fileField(100), name: fileField(500), url: fileField(2000), imageId: fileField(100), templateId: fileField(100) })
  .transform((f): MessageFile => ({ type: f.type ?? null, name: f.name ?? null, url: f.url ?? null, imageId: f.imageId ?? null, templateId: f.templateId ?? null }));

/** A UTC `YYYY-MM-DD HH:MM:SS` as epoch milliseconds. */
const epochMs = (utc: string) => Date.parse(`${utc.replace(' ', 'T')}Z`);

export const inboundMessageBodySchema = z.object({
  reservation_code: z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  message_text: messageText(),
  sent_dttm: utcDateParam.refine(
    (utc) => epochMs(utc) <= Date.now() + INBOUND_REPLAY_WINDOW_SECONDS * 1000,
    'must not be in the future',
  ),
  files: z.array(inboundFileSchema, { error: 'must be an array of files' }).max(MAX_FILES, `must hold at most ${MAX_FILES} files`).nullish(),
});
export type InboundMessageBody = z.output<typeof inboundMessageBodySchema>;

export const inboundMessageAnswerSchema = z.object({
  data: z.object({
    thread_id: z.number().int().describe('The thread (get-threads threadId)'),
    message_id: z.number().int().describe('The message (get-threads messageId)'),
    message_uid: z.string(),
    replayed: z.boolean().describe('True when the same message was already in the thread: nothing was appended'),
  }),
});
export type InboundMessageAnswer = z.infer<typeof inboundMessageAnswerSchema>;

export const unknownReservation = (code: string) => notFound('reservation_code', `Unknown reservation_code ${shown(code)}`);

/**
 * The companies whose connector for the platform signed this raw body within the window (normally
 * one; none: a bad, stale or missing signature). Every secret is tried, in constant time each.
 */
export async function inboundSigners(db: Db, platform: string, signature: string | undefined, rawBody: string): Promise<string[]> {
  if (!signature || signature.length > 1000) return [];
  const connectors = await connectorsOfPlatform(db, platform);
  return connectors.filter((c) => verifySignature(c.secret, signature, rawBody, INBOUND_REPLAY_WINDOW_SECONDS)).map((c) => c.companyUid);
}

/**
 * Appends the guest's message to the thread of the booking with that reservation code (opened if
 * none) of the first of `companyUids` holding one, with its `thread` and `message` changes
 * (`message.received`) in the same transaction. The thread row is locked first, so two copies
 * racing in meet there and the second finds the first.
 */
export async function appendInbound(db: Db, companyUids: readonly string[], body: InboundMessageBody): Promise<InboundMessageAnswer> {
  for (const companyUid of companyUids) {
    const answer = await db.transaction(async (tx) => {
      const where = { reservationCode: body.reservation_code };
      // A racing first message of the same booking may have opened the thread after this
      // statement's snapshot: the second look sees it (as message-booking-guest does).
      const thread = (await threadOfBooking(tx, companyUid, where)) ?? (await threadOfBooking(tx, companyUid, where));
      if (!thread) return undefined;
      return appendToThread(tx, companyUid, thread.id, body);
    });
    if (answer) return answer;
  }
  throw unknownReservation(body.reservation_code);
}

async function appendToThread(tx: Executor, companyUid: string, threadId: number, body: InboundMessageBody): Promise<InboundMessageAnswer> {
  await lockThread(tx, companyUid, threadId);
  const twin = await findInboundTwin(tx, companyUid, threadId, body.sent_dttm, body.message_text);
  if (twin) return { data: { thread_id: threadId, message_id: twin.id, message_uid: twin.uid, replayed: true } };
  const m = await insertMessage(tx, companyUid, threadId, { direction: 'inbound', channel: 'platform', text: body.message_text, sentDttm: body.sent_dttm, files: body.files ?? [] });
  await recordChanges(tx, [
    { company: companyUid, kind: 'thread', objectUid: String(threadId) },
    { company: companyUid, kind: 'message', objectUid: m.uid, event: 'message.received' },
  ]);
  return { data: { thread_id: threadId, message_id: m.id, message_uid: m.uid, replayed: false } };
}
