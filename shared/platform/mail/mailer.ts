import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter, type TransportOptions } from 'nodemailer';
import type { Config } from '../../infra/config.js';

/*
 * The service's one way to send an email: a pooled SMTP transport with SMTP_URL (at most
 * SMTP_MAX_CONNECTIONS connections per process, whatever MESSAGE_CONCURRENCY); without it (zero
 * config) each message is written whole as `<uid>.eml` into the outbox folder. Guests' messages
 * (messaging) and the notifications to owners and managers both go through it.
 */

export type MailOutcome = { kind: 'sent' } | { kind: 'retry'; error: string } | { kind: 'failed'; error: string };

export interface Mail {
  /** The message's own uid: its Message-ID, X-Message-Id and outbox file name (a resend replaces the file). */
  uid: string;
  to: string | { name: string; address: string };
  subject: string;
  text: string;
  date?: Date;
}

/** The Message-ID of a message: its uid, in the `<local@domain>` form mail needs. */
export const messageIdOf = (uid: string) => `<${uid}@property-ops>`;

interface SmtpError extends Error {
  responseCode?: number;
  code?: string;
}

/** SMTP's verdict: a 5xx reply is permanent, anything else (4xx, no reply at all) is worth retrying. */
export function smtpOutcome(err: unknown): MailOutcome {
  const e = err as SmtpError;
  const text = (e.message || e.code || 'SMTP send failed').slice(0, 500);
  if (typeof e.responseCode === 'number' && e.responseCode >= 500) return { kind: 'failed', error: `SMTP server refused the message: ${text}` };
  return { kind: 'retry', error: text };
}

export interface Mailer {
  send(mail: Mail): Promise<MailOutcome>;
  close(): void;
}

export function createMailer(config: Config): Mailer {
  const { smtpUrl, smtpFrom, outboxDir, timeoutMs } = config.messaging;
  let transport: Transporter | undefined;
  const transportOf = () =>
    (transport ??= smtpUrl
      ? nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: config.messaging.smtpMaxConnections, maxMessages: config.messaging.smtpMaxMessages, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs } as TransportOptions)
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));
  return {
    async send(m) {
      try {
        const info = (await transportOf().sendMail({
          from: smtpFrom,
          to: m.to,
          subject: m.subject,
          text: m.text,
          messageId: messageIdOf(m.uid),
          ...(m.date ? { date: m.date } : {}),
          headers: { 'X-Message-Id': m.uid },
        })) as { message?: Buffer };
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
    close() {
      transport?.close();
    },
  };
}
