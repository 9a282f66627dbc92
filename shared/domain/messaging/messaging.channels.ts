import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter, type TransportOptions } from 'nodemailer';
import type { Config } from '../../infra/config.js';
import { gatedPost, signatureHeader, TargetGate } from '../webhooks/index.js';
import type { ConnectorRow } from './connectors.repository.js';
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
  /** A connector busy or with its circuit open (target-gate.ts): nothing sent, try again at `until`. */
  | { kind: 'deferred'; until: number };

/** The Message-ID of a message: its uid, in the `<local@domain>` form mail needs. */
export const messageIdOf = (uid: string) => `<${uid}@property-ops>`;

interface SmtpError extends Error {
  responseCode?: number;
  code?: string;
}

/** SMTP's verdict: a 5xx reply is permanent, anything else (4xx, no reply at all) is worth retrying. */
export function smtpOutcome(err: unknown): SendOutcome {
  const e = err as SmtpError;
  const text = (e.message || e.code || 'SMTP send failed').slice(0, 500);
  if (typeof e.responseCode === 'number' && e.responseCode >= 500) return { kind: 'failed', error: `SMTP server refused the message: ${text}` };
  return { kind: 'retry', error: text };
}

export interface Channels {
  email(m: Outgoing): Promise<SendOutcome>;
  platform(m: Outgoing, connector: ConnectorRow | undefined): Promise<SendOutcome>;
  close(): void;
}

/**
 * The channels of one process. `gate`: the per-target fairness and circuit breaker the platform
 * channel's POSTs go through (issue 24: one company's hung connector delays no other's messages).
 */
export function createChannels(config: Config, gate = new TargetGate(config.webhooks.gate)): Channels {
  const { smtpUrl, smtpFrom, outboxDir, timeoutMs } = config.messaging;
  // With SMTP_URL a pooled SMTP transport; without, the .eml of each message lands in the outbox.
  let transport: Transporter | undefined;
  const transportOf = () =>
    (transport ??= smtpUrl
      ? nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: config.messaging.concurrency, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs } as TransportOptions)
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));

  return {
    async email(m) {
      const to = m.guestEmails[0];
      if (!to) return { kind: 'failed', error: `guest ${m.guestUid} has no email address` };
      const mail = {
        from: smtpFrom,
        to: m.guestName ? { name: m.guestName, address: to } : to,
        subject: `Your stay, reservation ${m.reservationCode}`,
        text: m.messageText,
        messageId: messageIdOf(m.uid),
        date: new Date(`${m.messageDttm.replace(' ', 'T')}Z`),
        headers: { 'X-Message-Id': m.uid },
      };
      try {
        const info = (await transportOf().sendMail(mail)) as { message?: Buffer };
        if (!smtpUrl) {
          // Written whole under a temporary name, then renamed: a reader never sees half a file, and
          // sending again (a retry) replaces the file with the same one.
          await mkdir(outboxDir, { recursive: true });
          const file = join(outboxDir, `${m.uid}.eml`);
          await writeFile(`${file}.tmp`, info.message ?? Buffer.alloc(0));
          await rename(`${file}.tmp`, file);
        }
        return { kind: 'sent' };
      } catch (err) {
        return smtpOutcome(err);
      }
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
      const headers = { 'Content-Type': 'application/json', 'X-Message-Id': m.uid, 'X-Webhook-Signature': signatureHeader(connector.secret, body) };
      const res = await gatedPost(gate, connector.url, body, headers, { timeoutMs, allowPrivateTargets: config.webhooks.allowPrivateTargets });
      if ('deferred' in res) return { kind: 'deferred', until: res.until };
      if (res.ok) return { kind: 'sent' };
      const code = res.statusCode;
      // A 4xx says the connector will never take this message (408 and 429 only ask to come back later).
      if (code !== null && code >= 400 && code < 500 && code !== 408 && code !== 429) return { kind: 'failed', error: `connector answered ${code}` };
      return { kind: 'retry', error: code !== null ? `connector answered ${code}` : (res.error ?? 'connector unreachable') };
    },

    close() {
      transport?.close();
    },
  };
}
