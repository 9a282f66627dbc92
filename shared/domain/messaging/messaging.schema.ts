import { z } from 'zod';
import { messageChannels, messageStatuses } from '../../infra/db/schema/messaging.js';
import { commaList, dateOrDateTime, pageParam, uidValue } from '../../infra/http/wire.js';
import { MAX_WAIT_SECONDS } from '../../platform/long-poll/index.js';
import { platformTypes } from '../bookings/index.js';

/*
 * Messaging on the wire (docs/api.md "Messaging"). get-threads answers in the iGMS camelCase shape
 * (unlike every other method); message-booking-guest and message-status use the snake_case of the
 * rest of the API.
 *
 * Vocabulary
 * - thread:    the conversation with one booking's guest (one per booking); integer threadId.
 * - message:   one text of a thread, outbound (host -> guest, sent by a worker) or
 *              inbound (a guest's reply a connector POSTs); integer messageId on the wire, and a
 *              uid (msg_...) that message-status takes and that goes out as Message-ID.
 * - channel:   how an outbound message travels: `platform` (the booking platform's connector) or
 *              `email` (SMTP to the guest's address).
 * - connector: a company's endpoint for one platform, registered by the operator, that carries
 *              platform messages out and guest replies in, both signed with its secret.
 */

export { messageChannels, messageStatuses };
export type MessageChannel = (typeof messageChannels)[number];
export type MessageStatus = (typeof messageStatuses)[number];

/** The longest message text (characters, as JavaScript counts them). */
export const MAX_MESSAGE_LENGTH = 5000;
const MAX_INT = 2_147_483_647;

/**
 * A date parameter against a UTC field (docs/api.md Conventions, the shared dateOrDateTime): the
 * instant in UTC, `YYYY-MM-DD HH:MM:SS`; a date alone is its midnight.
 */
export const utcDateParam = dateOrDateTime.transform((b) => b.utc);

const threadIdList = commaList(500).transform((ids, ctx): number[] | undefined => {
  if (ids === undefined) return undefined;
  const bad = ids.find((s) => !/^\d{1,10}$/.test(s) || Number(s) < 1 || Number(s) > MAX_INT);
  if (bad !== undefined) {
    ctx.addIssue({ code: 'custom', message: 'each value must be a thread id (a positive integer)' });
    return z.NEVER;
  }
  return [...new Set(ids.map(Number))];
});

export const getThreadsQuerySchema = z.object({
  bookingsUids: commaList().optional().describe('Comma list of booking uids (at most 500): their threads. Used before every other filter'),
  threadIds: threadIdList.optional().describe('Comma list of thread ids (at most 500). Used when bookingsUids is absent'),
  fromDate: utcDateParam.optional().describe('Threads whose last message is at or after this (UTC). Used when neither list is given'),
  toDate: utcDateParam.optional().describe('Threads whose last message is before this (UTC; excluded)'),
  page: pageParam.describe('1-based page of 25 threads'),
});
export type GetThreadsQuery = z.output<typeof getThreadsQuerySchema>;

const wireDateTime = z.string().describe('UTC, YYYY-MM-DD HH:MM:SS');

export const messageFileSchema = z.object({
  type: z.string().nullable(),
  name: z.string().nullable(),
  url: z.string().nullable(),
  imageId: z.string().nullable(),
  templateId: z.string().nullable(),
});
export type MessageFile = z.infer<typeof messageFileSchema>;

export const threadMessageSchema = z.object({
  messageId: z.number().int(),
  platformSenderUserId: z.string(),
  senderUid: z.string().describe('The host (outbound) or the guest (inbound)'),
  messageText: z.string(),
  messageDttm: wireDateTime,
  files: z.array(messageFileSchema),
  // Ours, beside the iGMS fields.
  messageUid: z.string().describe('Ours: the uid message-status takes'),
  messageStatus: z.enum(messageStatuses).describe('Ours: an inbound message is completed'),
  direction: z.enum(['outbound', 'inbound']).describe('Ours: outbound (to the guest) or inbound (from the guest)'),
});
export type ThreadMessage = z.infer<typeof threadMessageSchema>;

export const threadSchema = z.object({
  threadId: z.number().int(),
  platformType: z.enum(platformTypes),
  platformUserId: z.string().describe('The host on the platform; this service knows no platform-side id, so it is hostUid'),
  hostUid: z.string(),
  platformGuestId: z.string().describe('The guest on the platform; this service knows no platform-side id, so it is guestUid'),
  guestUid: z.string(),
  createDttm: wireDateTime,
  updateDttm: wireDateTime,
  listingId: z.string().describe('The listing on the platform; this service knows no platform-side id, so it is listingUid'),
  listingUid: z.string(),
  reservationCode: z.string(),
  bookingUid: z.string(),
  lastMessageDttm: wireDateTime.nullable(),
  messages: z.array(threadMessageSchema).describe('Newest first'),
});
export type Thread = z.infer<typeof threadSchema>;

export const threadsPageSchema = z.object({
  data: z.array(threadSchema),
  meta: z.object({ page: z.number().int(), hasNextPage: z.boolean() }),
});
export type ThreadsPage = z.infer<typeof threadsPageSchema>;

/** A message's text in a body (sent or received): not blank, at most MAX_MESSAGE_LENGTH characters. */
export const messageText = () =>
  z
    .string({ error: 'must be a string' })
    .refine((s) => s.trim() !== '', 'must not be blank')
    // Characters as a person counts them (code points): an emoji is one, not two UTF-16 units.
    .refine((s) => s.length <= MAX_MESSAGE_LENGTH || [...s].length <= MAX_MESSAGE_LENGTH, `must be at most ${MAX_MESSAGE_LENGTH} characters`)
    .meta({ maxLength: MAX_MESSAGE_LENGTH });

/** A thread id in a body: an integer, or a string of digits (some clients send ids as text). */
const threadIdValue = z.union([z.number(), z.string().regex(/^\d{1,10}$/).transform(Number)], { error: 'must be a thread id (a positive integer)' }).pipe(
  z.number({ error: 'must be a thread id (a positive integer)' }).int('must be a thread id (a positive integer)').min(1, 'must be a thread id (a positive integer)').max(MAX_INT, 'must be a thread id (a positive integer)'),
);

export const messageBookingGuestBodySchema = z
  .object({
    message: messageText(),
    thread_id: threadIdValue.nullish(),
    thread_uid: threadIdValue.nullish().describe('Another name for thread_id (the one the iGMS page uses); thread_id wins when both are given'),
    booking_uid: uidValue().nullish(),
    channel: z.enum(messageChannels, { error: `must be one of: ${messageChannels.join(', ')}` }).nullish(),
  })
  .superRefine((b, ctx) => {
    if (b.thread_id == null && b.thread_uid == null && b.booking_uid == null) ctx.addIssue({ code: 'custom', path: ['thread_id'], message: 'thread_id or booking_uid is required' });
  })
  .transform((b) => ({ message: b.message, thread_id: b.thread_id ?? b.thread_uid ?? undefined, booking_uid: b.booking_uid ?? undefined, channel: b.channel ?? ('platform' as const) }));
export type MessageBookingGuestBody = z.output<typeof messageBookingGuestBodySchema>;

export const messageBookingGuestAnswerSchema = z.object({ data: z.object({ message_uid: z.string() }) });
export type MessageBookingGuestAnswer = z.infer<typeof messageBookingGuestAnswerSchema>;

export const messageStatusQuerySchema = z.object({
  message_uid: uidValue(),
  wait: z.coerce.number().min(0).max(MAX_WAIT_SECONDS).optional(),
});

export const messageStatusSchema = z.object({
  message_uid: z.string(),
  message_status: z.enum(messageStatuses),
  message_error: z.string().optional().describe('Present only when message_status is error'),
});
export type MessageStatusView = z.infer<typeof messageStatusSchema>;
