import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { appendOutbound, markFinished, markSending, markSentMany, markSentManySql, threadOfBooking } from '../../shared/domain/messaging/index.js';
import { createCompany } from '../support/factories.js';
import { createBookingFor } from '../support/messaging.js';
import { useWorld } from '../support/world.js';

/*
 * The worker's group commit of sent messages (markSentMany): several messages `completed` in one
 * statement, each with its change-feed records (its thread, then itself), a final one left alone.
 */

const t = useWorld();

describe('markSentMany', () => {
  it('completes several messages with their change-feed records and leaves a final one alone', async () => {
    const db = t.tdb.database.db;
    const company = await createCompany(db);
    const booking = (await createBookingFor(db, company)).bookingUid;
    const thread = (await threadOfBooking(db, company, { bookingUid: booking }))!.id;
    const uids: string[] = [];
    for (let i = 0; i < 4; i++) uids.push((await appendOutbound(db, company, { threadId: thread }, { channel: 'email', text: `m${i}` }))!);
    for (const uid of uids) await markSending(db, uid);
    expect(await markFinished(db, uids[3]!, { status: 'error', error: 'refused' })).toBe(true);
    const [{ before } = { before: 0 }] = await db.execute<{ before: number }>(sql`select coalesce(max(id), 0)::int as before from changes`);

    const done = await markSentMany(db, [...uids, 'msg_nosuchmessage']);
    expect([...done].sort()).toEqual(uids.slice(0, 3).sort());
    const rows = await db.execute<{ uid: string; status: string; error: string | null; finished: boolean }>(sql`
      select uid, status, message_error as error, finished_at is not null as finished from messages where uid in (${sql.join(uids.map((u) => sql`${u}`), sql`, `)}) order by id`);
    expect(rows.map((r) => [r.status, r.error, r.finished])).toEqual([
      ['completed', null, true],
      ['completed', null, true],
      ['completed', null, true],
      ['error', 'refused', true],
    ]);
    const feed = await db.execute<{ kind: string; object_uid: string; event: string | null }>(sql`
      select kind, object_uid, event from changes where id > ${before} order by id`);
    expect(feed).toHaveLength(6);
    for (let i = 0; i < 6; i += 2) {
      expect(feed[i]).toMatchObject({ kind: 'thread', object_uid: String(thread), event: null });
      expect(feed[i + 1]).toMatchObject({ kind: 'message', event: 'message.status' });
    }
    expect(new Set(feed.filter((c) => c.kind === 'message').map((c) => c.object_uid))).toEqual(done);
    // Again: nothing left to mark, nothing recorded.
    expect((await markSentMany(db, uids)).size).toBe(0);
    const [{ after } = { after: 0 }] = await db.execute<{ after: number }>(sql`select count(*)::int as after from changes where id > ${before}`);
    expect(after).toBe(6);
  });

  it('finds the messages it marks by the uid index, not by reading through messages, on a table never analyzed', async () => {
    const db = t.tdb.database.db;
    const company = await createCompany(db);
    const booking = (await createBookingFor(db, company)).bookingUid;
    const thread = (await threadOfBooking(db, company, { bookingUid: booking }))!.id;
    const uid = (await appendOutbound(db, company, { threadId: thread }, { channel: 'email', text: 'm' }))!;
    // 3,000 sent messages beside it (the bench's table when the old form read all of it: 0.57 ms a statement, growing).
    await db.execute(sql`
      insert into messages (uid, company_uid, thread_id, direction, channel, sender_uid, message_text, message_dttm, files, status)
      select 'msg_fill' || i || '_' || m.uid, m.company_uid, m.thread_id, m.direction, m.channel, m.sender_uid, m.message_text, m.message_dttm, m.files, 'completed'
        from messages m, generate_series(1, 3000) i where m.uid = ${uid}`);
    const plans = await db.execute<{ 'QUERY PLAN': unknown }>(sql`explain (format json) ${markSentManySql([uid, 'msg_other'])}`);
    const scans: string[] = [];
    const walk = (node: Record<string, unknown>) => {
      if (node['Relation Name'] === 'messages') scans.push(String(node['Node Type']));
      for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
    };
    walk(((plans[0]!['QUERY PLAN'] as Array<{ Plan: Record<string, unknown> }>)[0]!).Plan);
    expect(scans.length).toBeGreaterThan(0);
    expect(scans).not.toContain('Seq Scan');
  });
});
