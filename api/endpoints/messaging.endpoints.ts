import { z } from 'zod';
import {
  getThreadsQuerySchema,
  MAX_MESSAGE_LENGTH,
  messageBookingGuestAnswerSchema,
  messageBookingGuestBodySchema,
  messageStatusQuerySchema,
  messageStatusSchema,
  threadsPageSchema,
} from '../../shared/domain/messaging/index.js';
import { commaListDoc, pageDoc, errorText } from '../openapi/common.js';
import { named } from '../openapi/extend-zod.js';
import { defineEndpoint } from './define.js';
import { idempotencyKeyHeader } from './idempotency-header.js';

/* Messaging (docs/api.md "Messaging"): threads, messages to guests, their statuses. */

const threadExample = {
  threadId: 1042,
  platformType: 'airbnb',
  platformUserId: 'ho_19d0beKx2Rq7Lp5Zm8Na',
  hostUid: 'ho_19d0beKx2Rq7Lp5Zm8Na',
  platformGuestId: 'gu_7Tq2Lm9Xa0Vb3Nc5Rk1Z',
  guestUid: 'gu_7Tq2Lm9Xa0Vb3Nc5Rk1Z',
  createDttm: '2030-05-01 09:12:44',
  updateDttm: '2030-05-02 08:41:17',
  listingId: 'li_2Hk9QwL0xVb7Nm3Rc5Ta',
  listingUid: 'li_2Hk9QwL0xVb7Nm3Rc5Ta',
  reservationCode: 'HMX4ZQ7P2A',
  bookingUid: 'bk_3Zt7Qp1LmX9wVb2Nc8Ra',
  lastMessageDttm: '2030-05-02 08:41:17',
  messages: [
    {
      messageId: 88231,
      platformSenderUserId: 'ho_19d0beKx2Rq7Lp5Zm8Na',
      senderUid: 'ho_19d0beKx2Rq7Lp5Zm8Na',
      messageText: 'The door code is 4821. Welcome!',
      messageDttm: '2030-05-02 08:41:17',
      files: [],
      messageUid: 'msg_Xw3Lm9Qa0ZtB7nVc2Rk5',
      messageStatus: 'completed',
      direction: 'outbound',
    },
  ],
};

export const getThreads = defineEndpoint({
  method: 'get',
  path: '/api/v1/get-threads',
  scopes: ['messaging'],
  operationId: 'getThreads',
  tag: 'Messaging',
  summary: 'Threads with guests and their messages',
  description:
    'The iGMS shape, camelCase unlike every other method: 25 threads per page with meta {page, hasNextPage}, ordered by ' +
    'lastMessageDttm descending, then threadId; each with every message, newest first. Only one filter is used, the first ' +
    'given of bookingsUids, threadIds, then the date window; the others are ignored. The window is [fromDate, toDate) on ' +
    'lastMessageDttm (UTC): toDate is excluded, as real iGMS does; given only one of the two, the other is one day from it. ' +
    'Decided here: the service knows no platform-side ids, so platformUserId, platformGuestId and listingId repeat hostUid, ' +
    'guestUid and listingUid, and platformSenderUserId repeats senderUid; messageUid, messageStatus and direction are ' +
    'ours (extra keys). A thread exists from its first message (sent or received).',
  query: getThreadsQuerySchema,
  queryDocs: {
    bookingsUids: commaListDoc('Threads of these bookings', 'bk_3Zt7Qp1LmX9wVb2Nc8Ra'),
    threadIds: commaListDoc('These threads', '1042,1043', { type: 'integer', minimum: 1 }),
    fromDate: { type: 'string', description: 'Start of the window (included), UTC: YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or ISO 8601 with an offset.', example: '2030-05-01' },
    toDate: { type: 'string', description: 'End of the window (excluded), UTC: YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or ISO 8601 with an offset.', example: '2030-05-03' },
    page: pageDoc,
  },
  answer: {
    description: 'A page of threads',
    schema: named('ThreadsPage', threadsPageSchema),
    example: { data: [threadExample], meta: { page: 1, hasNextPage: false } },
  },
  handle: (ctx, { query, principal }) => ctx.services.messaging.listThreads(principal.companyUid, query),
});

const idempotencyHeader = idempotencyKeyHeader('Optional, 1-255 characters, kept 24 h per token: the same key with the same body answers the first answer again and sends nothing; with a different body it is a 409, code 11.');

export const messageBookingGuest = defineEndpoint({
  method: 'post',
  path: '/api/v1/message-booking-guest',
  scopes: ['messaging'],
  recentToken: true,
  operationId: 'messageBookingGuest',
  tag: 'Messaging',
  summary: 'Send a message to a booking\'s guest',
  description:
    `message is required, not blank, at most ${MAX_MESSAGE_LENGTH} characters (code points). thread_id or booking_uid is required; ` +
    'thread_id wins when both are given. channel is platform (the default: the connector registered for the booking\'s platform) ' +
    'or email (the guest\'s first address, through SMTP). The message is stored in the thread as queued before the answer and ' +
    'a worker sends it; poll message-status with the message_uid. An unknown thread or booking, or one of another company, is ' +
    '404. Transient failures (SMTP 4xx, connection errors, connector 5xx, 408, 429 or time-outs) are retried with backoff for ' +
    'up to 24 h; permanent ones (SMTP 5xx, another connector 4xx, no connector for the platform, a guest without an email ' +
    'address) end in error at once. Decided here: the uid goes out as X-Message-Id and in the Message-ID <uid@property-ops>; ' +
    'a thread_id may come as an integer or a string of digits; null is the same as absent.',
  body: messageBookingGuestBodySchema,
  bodyDoc: { name: 'MessageBookingGuestBody', example: { booking_uid: 'bk_3Zt7Qp1LmX9wVb2Nc8Ra', message: 'The door code is 4821. Welcome!', channel: 'email' } },
  headers: idempotencyHeader,
  answer: {
    description: 'Accepted: the message uid to poll',
    schema: named('MessageBookingGuestAnswer', messageBookingGuestAnswerSchema),
    example: { data: { message_uid: 'msg_Xw3Lm9Qa0ZtB7nVc2Rk5' } },
  },
  errors: [404, 409, 413, 415],
  errorTexts: {
    400: { description: 'Code 11: a blank or too long message, neither thread_id nor booking_uid, an unknown channel', example: { error: { code: 11, message: 'Invalid parameter message: must not be blank', param: 'message', details: [{ path: 'message', message: 'must not be blank' }] } } },
    404: errorText(11, 'an unknown thread_id or booking_uid, or one of another company', 'Unknown thread_id 7', 'thread_id'),
    409: errorText(11, 'the Idempotency-Key was already used with a different body', 'This Idempotency-Key was already used with a different body', 'Idempotency-Key'),
  },
  handle: (ctx, { body, principal, headers, tokenCheck }) => ctx.services.messaging.send(principal.companyUid, body, { ...principal, check: tokenCheck }, headers['Idempotency-Key']),
});

export const messageStatus = defineEndpoint({
  method: 'get',
  path: '/api/v1/message-status',
  scopes: ['messaging'],
  // The status polls: the token's lookup runs beside the read (define.ts recentToken).
  recentToken: true,
  operationId: 'messageStatus',
  tag: 'Messaging',
  summary: 'Status of a message to a guest',
  description:
    'message_status is queued, processing, completed (handed to the channel), error (message_error says why), paused (queued ' +
    'while an operator has paused the queue) or disabled. Read from Postgres, so it survives the loss of the queue. wait=N ' +
    '(0 to 30 seconds) holds the answer until the message is completed or error, or N seconds have passed (Postgres ' +
    'LISTEN/NOTIFY: no polling). An unknown uid, or one of another company, is 404.',
  query: messageStatusQuerySchema,
  queryDocs: {
    message_uid: { description: 'The uid message-booking-guest answered.', example: 'msg_Xw3Lm9Qa0ZtB7nVc2Rk5' },
    wait: { type: 'number', minimum: 0, maximum: 30, description: 'Long-poll: seconds (0 to 30) to hold the answer until the message is final.', example: 10 },
  },
  answer: {
    description: 'The message\'s status',
    schema: named('MessageStatusAnswer', z.object({ data: named('MessageStatus', messageStatusSchema) })),
    example: { data: { message_uid: 'msg_Xw3Lm9Qa0ZtB7nVc2Rk5', message_status: 'error', message_error: 'guest gu_7Tq2 has no email address' } },
  },
  errors: [404],
  errorTexts: {
    404: errorText(11, 'an unknown message uid, or one of another company', 'Unknown message_uid msg_x', 'message_uid'),
  },
  async handle(ctx, { query, principal, signal }) {
    return { data: await ctx.services.messaging.waitForStatus(principal.companyUid, query.message_uid, query.wait ?? 0, signal) };
  },
});
