import { sql as dsql } from 'drizzle-orm';
import type { Db, Sql } from '../../shared/infra/db/client.js';
import { createBookingFor } from '../support/messaging.js';
import { startSmtp, type TestSmtp } from '../support/smtp.js';
import type { ApiClient } from './http.js';
import { RestartableServer } from './restartable.js';

/*
 * The messaging half of the fault suite (issue 22): messages to a guest sent by email through the
 * API the whole time the rest of the suite kills workers and restarts Redis and Postgres, to a
 * local SMTP server that is itself down for a window. At the end every accepted message must be
 * `completed` and in the SMTP server's mailbox (by its Message-ID), and no message may exist that
 * no 200 answer named. Each send carries an Idempotency-Key, so a retry after no answer cannot
 * store it twice.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class FaultSmtp extends RestartableServer<string> {
  get url() {
    return `smtp://127.0.0.1:${this.port}`;
  }

  protected open(port: number): Promise<TestSmtp> {
    return startSmtp(port);
  }
}

/** A booking whose guest has an email address; answers its uid. */
export async function messagingBooking(db: Db, companyUid: string): Promise<string> {
  const b = await createBookingFor(db, companyUid);
  await db.execute(dsql`update guests set emails = array['guest@faults.example'] where company_uid = ${companyUid} and uid = ${b.guestUid}`);
  return b.bookingUid;
}

export interface MessageStream {
  /** uid per accepted message, in sending order. */
  accepted: string[];
  refused: number;
  retried: number;
}

/**
 * Sends messages one after another (a client's loop: the next one `everyMs` after the previous was
 * answered) for `durationMs`; a 503 or no answer is sent again with the same key, backing off as
 * the calendar stream does.
 */
export async function streamMessages(client: ApiClient, bookingUid: string, opts: { durationMs: number; everyMs: number; retryForMs: number; runId: string }): Promise<MessageStream> {
  const out: MessageStream = { accepted: [], refused: 0, retried: 0 };
  const end = Date.now() + opts.durationMs;
  for (let i = 0; Date.now() < end; i++) {
    const body = { booking_uid: bookingUid, message: `fault message ${i}`, channel: 'email' };
    const { answer: a, tries } = await client.postRetrying('/api/v1/message-booking-guest', body, { 'Idempotency-Key': `${opts.runId}-m${i}` }, opts.retryForMs);
    out.retried += tries - 1;
    if (a.status === 200) out.accepted.push(a.body.data.message_uid as string);
    else out.refused++;
    await sleep(opts.everyMs);
  }
  return out;
}

/** Waits (bounded) until every accepted message is final. */
export async function waitForMessages(sql: Sql, uids: readonly string[], timeoutMs: number): Promise<{ settled: boolean; pending: number }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await sql<{ n: number }[]>`select count(*)::int as n from messages where uid = any(${sql.array([...uids])}) and status not in ('completed', 'error')`.catch(() => [{ n: -1 }]);
    const pending = rows[0]?.n ?? -1;
    if (pending === 0) return { settled: true, pending };
    if (Date.now() > deadline) return { settled: false, pending };
    await sleep(250);
  }
}

export interface MessageVerdict {
  accepted: number;
  completed: number;
  errors: string[];
  /** Accepted messages the SMTP server never received. */
  lost: string[];
  /** Extra copies received (a crash between the send and its record sends it again). */
  duplicates: number;
  /** Outbound messages stored that no 200 answer named. */
  phantoms: number;
}

export async function verifyMessages(sql: Sql, smtp: FaultSmtp, stream: MessageStream): Promise<MessageVerdict> {
  const rows = await sql<{ uid: string; status: string; message_error: string | null }[]>`
    select uid, status, message_error from messages where direction = 'outbound'`;
  const accepted = new Set(stream.accepted);
  const byUid = new Map(rows.map((r) => [r.uid, r]));
  const copies = new Map<string, number>();
  for (const raw of smtp.received) {
    const m = /^Message-ID: <([^@>]+)@/im.exec(raw);
    if (m?.[1]) copies.set(m[1], (copies.get(m[1]) ?? 0) + 1);
  }
  return {
    accepted: accepted.size,
    completed: stream.accepted.filter((u) => byUid.get(u)?.status === 'completed').length,
    errors: stream.accepted.filter((u) => byUid.get(u)?.status === 'error').map((u) => `${u}: ${byUid.get(u)?.message_error ?? ''}`),
    lost: stream.accepted.filter((u) => !copies.has(u)),
    duplicates: [...copies.values()].reduce((n, c) => n + c - 1, 0),
    phantoms: rows.filter((r) => !accepted.has(r.uid)).length,
  };
}

export function renderMessageReport(v: MessageVerdict, stream: MessageStream, smtp: FaultSmtp, settleMs: number): string {
  return [
    'messages (email through a local SMTP server, down for windows too):',
    `  accepted ${v.accepted} (${stream.retried} sends repeated after a 503 or no answer, ${stream.refused} refused), completed ${v.completed}, error ${v.errors.length}`,
    `  received by SMTP: ${v.accepted - v.lost.length} of ${v.accepted} (lost ${v.lost.length}), extra copies ${v.duplicates}, phantom messages ${v.phantoms}`,
    `  SMTP down windows ${smtp.downWindows}; all final ${(settleMs / 1000).toFixed(1)} s after the webhooks settled`,
  ].join('\n');
}
