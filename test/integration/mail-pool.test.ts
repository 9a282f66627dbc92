import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/infra/config.js';
import { createMailer } from '../../shared/platform/mail/index.js';
import { startSmtp } from '../support/smtp.js';

/*
 * The mailer's SMTP pool opens at most SMTP_MAX_CONNECTIONS connections, however many sends run at
 * once (MESSAGE_CONCURRENCY send-message jobs): the sends beyond them wait for a free connection,
 * and every one is delivered. Each connection carries SMTP_MAX_MESSAGES messages, then is replaced.
 */

describe('the SMTP pool', () => {
  it('opens at most SMTP_MAX_CONNECTIONS connections for more concurrent sends, and sends them all', async () => {
    const smtp = await startSmtp();
    const mailer = createMailer(loadConfig({ SMTP_URL: smtp.url, SMTP_MAX_CONNECTIONS: '2', MESSAGE_CONCURRENCY: '16' }));
    try {
      const outcomes = await Promise.all(
        Array.from({ length: 12 }, (_, i) => mailer.send({ uid: `msg_pool${i}`, to: 'guest@guest.example', subject: `Pool ${i}`, text: `Message ${i}` })),
      );
      expect(outcomes.every((o) => o.kind === 'sent')).toBe(true);
      expect(smtp.received).toHaveLength(12);
      expect(smtp.maxOpen).toBeGreaterThanOrEqual(1);
      expect(smtp.maxOpen).toBeLessThanOrEqual(2);
    } finally {
      mailer.close();
      await smtp.close();
    }
  });

  it('carries SMTP_MAX_MESSAGES messages on a connection before it opens another', async () => {
    const smtp = await startSmtp();
    const mailer = createMailer(loadConfig({ SMTP_URL: smtp.url, SMTP_MAX_CONNECTIONS: '1', SMTP_MAX_MESSAGES: '3' }));
    try {
      for (let i = 0; i < 7; i++) expect((await mailer.send({ uid: `msg_reuse${i}`, to: 'guest@guest.example', subject: 'Reuse', text: `Message ${i}` })).kind).toBe('sent');
      expect(smtp.received).toHaveLength(7);
      expect(smtp.connections).toBe(3);
    } finally {
      mailer.close();
      await smtp.close();
    }
  });
});
