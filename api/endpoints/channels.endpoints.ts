import { z } from 'zod';
import { platformTypes } from '../../shared/domain/bookings/index.js';
import { INBOUND_REPLAY_WINDOW_SECONDS, inboundMessageAnswerSchema, inboundMessageBodySchema, MAX_MESSAGE_LENGTH } from '../../shared/domain/messaging/index.js';
import { AppError, ErrorCode } from '../../shared/infra/errors.js';
import { failureState, refuse } from '../middleware/auth.js';
import { rawBodyOf } from '../middleware/body.js';
import { errorText, plainHeaders, retryAfterHeaders } from '../openapi/common.js';
import { named } from '../openapi/extend-zod.js';
import { defineEndpoint } from './define.js';

/* Channel connectors calling in (docs/api.md "Messaging"): no token, a signature instead. */

const badSignature = () =>
  new AppError(ErrorCode.unauthorized, `X-Webhook-Signature is missing, invalid, or more than ${INBOUND_REPLAY_WINDOW_SECONDS} s from now`);

export const receiveChannelMessage = defineEndpoint({
  method: 'post',
  path: '/channels/{platform}/inbound',
  scopes: 'public',
  operationId: 'receiveChannelMessage',
  tag: 'Messaging',
  summary: 'A guest\'s reply, posted by a channel connector',
  description:
    'No token: the body is signed with the secret `channel set` printed for the platform, as webhooks are signed: ' +
    'X-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">, the body\'s UTF-8 bytes exactly as sent. ' +
    `A signature no connector of the platform made, or a t more than ${INBOUND_REPLAY_WINDOW_SECONDS} s from now, is 401 ` +
    '(code 12); failed signatures count against the address\'s failed-authentication allowance (AUTH_FAILURES_PER_MINUTE, then ' +
    '429), and a connector\'s accepted calls against RATE_LIMIT_PER_MINUTE. The message is appended, as inbound and completed, ' +
    'to the thread of the signing company\'s booking with that reservation_code (the thread is opened if none); an unknown ' +
    `code is 404. message_text is not blank, at most ${MAX_MESSAGE_LENGTH} characters; sent_dttm (UTC, or ISO 8601 with an ` +
    'offset) is when the guest sent it, not in the future; files at most 20. Decided here: the same message twice (same ' +
    'thread, sent_dttm and message_text: a replay, or a connector re-sending after a lost answer) is appended once; the ' +
    'second answer names the first message with replayed: true. The body is checked before the signature (400 first).',
  params: z.object({ platform: z.enum(platformTypes, { error: `must be one of: ${platformTypes.join(', ')}` }) }),
  headers: z.object({ 'X-Webhook-Signature': z.string().optional().describe('t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the connector\'s secret>') }),
  body: inboundMessageBodySchema,
  bodyDoc: { name: 'InboundMessageBody', example: { reservation_code: 'HMX4ZQ7P2A', message_text: 'We land at 9, can we check in early?', sent_dttm: '2026-05-02 08:41:17', files: [] } },
  answer: {
    description: 'Appended (or already there: replayed)',
    schema: named('InboundMessageAnswer', inboundMessageAnswerSchema),
    example: { data: { thread_id: 1042, message_id: 88232, message_uid: 'msg_Lq8Za1Xw3Vb7Nc2Rk5Tm', replayed: false } },
  },
  errors: [400, 401, 404, 413, 415, 429, 500, 503],
  errorTexts: {
    401: errorText(12, 'the signature is missing, made with no connector\'s secret of this platform, or stale', 'X-Webhook-Signature is missing, invalid, or more than 300 s from now'),
    404: errorText(11, 'no booking of the signing company has this reservation_code', 'Unknown reservation_code HMX4ZQ7P2A', 'reservation_code'),
    // A connector has no token: no RateLimit headers, only when to retry.
    429: { ...errorText(16, 'too many failed signatures from this address, or too many calls from this connector', 'Too many requests from this connector: at most 1000 per minute'), headers: plainHeaders.extend(retryAfterHeaders.shape) },
  },
  async handle(ctx, { params, body, headers, req }) {
    const raw = rawBodyOf(req).toString('utf8');
    const signers = await ctx.services.messaging.inboundSigners(params.platform, headers['X-Webhook-Signature'], raw);
    if (signers.length === 0) return refuse(ctx, failureState(), req.ip ?? 'unknown', badSignature());
    const r = await ctx.rateLimiter.hit(`inbound:${params.platform}:${signers[0]}`);
    if (!r.allowed) {
      throw new AppError(ErrorCode.rateLimited, `Too many requests from this connector: at most ${r.limit} per minute`, { headers: { 'Retry-After': String(r.resetSeconds) } });
    }
    return ctx.services.messaging.receive(signers, body);
  },
});
