import type { Config } from '../../infra/config.js';
import { createMailer, type Mailer } from '../../platform/mail/index.js';
import { gatedPost, signedPostHeaders, TargetGate, type KeptConnections } from '../../platform/outbound-http/index.js';
import type { ConnectorRow } from './connectors.repository.js';
import { isEmailAddress } from '../../infra/email-address.js';
import type { Outgoing } from './messages.repository.js';

/*
 * The two channels of an outbound message (docs/api.md "Channels"). Each answers what happened as a
 * value: `sent`, `retry` (transient: SMTP 4xx, a connection error, a connector's 5xx or time-out)
 * or `failed` (permanent: SMTP 5xx, a connector's 4xx, a guest without an address, no connector).
 * The message uid goes out as X-Message-Id (and in the Message-ID), so a receiver can drop the
 * duplicate that a crash between sending and recording can cause.
 */

export type SendOutcome =
  | { kind: 'sent' }
  | { kind: 'retry'; error: string }
  | { kind: 'failed'; error: string }
  /** A connector busy or with its circuit open (shared/platform/outbound-http): nothing sent, try again at `until`. */
  | { kind: 'deferred'; until: number };

export { messageIdOf, smtpOutcome } from '../../platform/mail/index.js';

export interface Channels {
  email(m: Outgoing): Promise<SendOutcome>;
  platform(m: Outgoing, connector: ConnectorRow | undefined): Promise<SendOutcome>;
  close(): void;
}

/**
 * The channels of one process. `gate`: the per-target fairness and circuit breaker the platform
 * channel's POSTs go through (issue 24: one company's hung connector delays no other's messages).
 * `connections`: the runtime's kept connections to connectors (none: a connection per POST).
 */
export function createChannels(config: Config, gate = new TargetGate(config.outbound.gate), connections?: KeptConnections): Channels {
  const { timeoutMs } = config.messaging;
  // The service's one mail sender (shared/platform/mail): SMTP_URL, or .eml files in the outbox.
  let mailer: Mailer | undefined;

  return {
    async email(m) {
      const to = m.guestEmails[0];
      if (!to) return { kind: 'failed', error: `guest ${m.guestUid} has no email address` };
      // An address stored before addresses were checked (issue 39 L5) is never handed to SMTP.
      if (!isEmailAddress(to)) return { kind: 'failed', error: `guest ${m.guestUid} has no valid email address` };
      return (mailer ??= createMailer(config)).send({
        uid: m.uid,
        to: m.guestName ? { name: m.guestName, address: to } : to,
        subject: `Your stay, reservation ${m.reservationCode}`,
        text: m.messageText,
        date: new Date(`${m.messageDttm.replace(' ', 'T')}Z`),
      });
    },

    async platform(m, connector) {
      if (!connector) return { kind: 'failed', error: `no channel connector for platform ${m.platformType}` };
      const body = JSON.stringify({
        message_uid: m.uid,
        platform: m.platformType,
        reservation_code: m.reservationCode,
        booking_uid: m.bookingUid,
        thread_id: m.threadId,
        message_id: m.messageId,
        message_text: m.messageText,
        message_dttm: m.messageDttm,
      });
      const headers = signedPostHeaders(m.uid, body, connector.secret, 'X-Message-Id');
      const res = await gatedPost(gate, connector.url, body, headers, { timeoutMs, allowPrivateTargets: config.outbound.allowPrivateTargets, connections });
      if ('deferred' in res) return { kind: 'deferred', until: res.until };
      if (res.ok) return { kind: 'sent' };
      const code = res.statusCode;
      // A 4xx says the connector will never take this message (408 and 429 only ask to come back later).
      if (code !== null && code >= 400 && code < 500 && code !== 408 && code !== 429) return { kind: 'failed', error: `connector answered ${code}` };
      return { kind: 'retry', error: code !== null ? `connector answered ${code}` : (res.error ?? 'connector unreachable') };
    },

    close() {
      mailer?.close();
    },
  };
}
