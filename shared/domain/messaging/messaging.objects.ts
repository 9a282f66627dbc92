import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { messages } from '../../infra/db/schema/index.js';
import { PAGE_SIZE } from '../../infra/http/wire.js';
import { messageToWire, threadToWire } from './messaging.wire.js';
import { listThreads, messagesOfThreads } from './threads.repository.js';

/*
 * Threads and messages as the change feed (and the webhook events drawn from it) shows them: a
 * thread as get-threads shows it (every message, newest first), keyed by its id as text; a message
 * as get-threads shows it inside its thread, plus `threadId` (decided: the feed names the thread a
 * message belongs to, which the nested shape of get-threads does not need to).
 */

export async function threadObjects(db: Db, companyUid: string, uids: readonly string[]): Promise<Map<string, unknown>> {
  const ids = [...new Set(uids.filter((u) => /^\d{1,10}$/.test(u)).map(Number))];
  const out = new Map<string, unknown>();
  for (let i = 0; i < ids.length; i += PAGE_SIZE) {
    const rows = await listThreads(db, companyUid, { kind: 'threads', threadIds: ids.slice(i, i + PAGE_SIZE) }, 1);
    const msgs = await messagesOfThreads(db, companyUid, rows.map((t) => t.id));
    for (const t of rows) out.set(String(t.id), threadToWire(t, msgs.filter((m) => m.threadId === t.id)));
  }
  return out;
}

export async function messageObjects(db: Db, companyUid: string, uids: readonly string[]): Promise<Map<string, unknown>> {
  if (uids.length === 0) return new Map();
  const rows = await db.select().from(messages).where(and(eq(messages.companyUid, companyUid), inArray(messages.uid, [...uids])));
  return new Map(rows.map((m) => [m.uid, { ...messageToWire(m), threadId: m.threadId }]));
}
