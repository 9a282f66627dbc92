/*
 * mail: sending an email, over SMTP (SMTP_URL) or into the outbox folder (zero config). The public
 * surface of the piece.
 *   mailer.ts  createMailer (send -> sent / retry / failed), smtpOutcome, messageIdOf
 */
export * from './mailer.js';
