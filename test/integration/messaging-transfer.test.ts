import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../bin/cli/main.js';
import { insertMessage, threadOfBooking } from '../../shared/domain/messaging/index.js';
import { companies } from '../../shared/infra/db/schema/index.js';
import type { TestDatabase } from '../support/db.js';
import { useWorld } from '../support/world.js';
import { createCompany } from '../support/factories.js';
import { createBookingFor } from '../support/messaging.js';

/*
 * Threads and messages in `cli export` / `cli import`: every column but the database's own
 * numbers (thread and message ids) and bookkeeping times comes back; refusals name their line.
 */

const source = useWorld();
const target = useWorld();
const w = {} as { company: string; other: string; bookings: string[]; dir: string; file: string };

const cli = async (db: TestDatabase, ...args: string[]) => {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { env: { DATABASE_URL: db.url }, io: { result: (l) => (stdout += `${l}\n`), note: (l) => (stderr += `${l}\n`) } });
  return { code, stdout, stderr };
};

/** Threads by booking and messages by uid, as stored, minus the ids the database assigns and bookkeeping times. */
async function dump(db: TestDatabase, companyUid: string) {
  const threads = await db.database.db.execute(sql`
    select to_jsonb(t) - 'id' as row from message_threads t where company_uid = ${companyUid} order by booking_uid collate "C"`);
  const msgs = await db.database.db.execute(sql`
    select to_jsonb(m) - 'id' - 'thread_id' - 'created_at' - 'started_at' - 'finished_at' - 'enqueued_at' || jsonb_build_object('booking_uid', t.booking_uid) as row
      from messages m join message_threads t on t.id = m.thread_id where m.company_uid = ${companyUid} order by m.uid collate "C"`);
  return { threads, msgs };
}

beforeAll(async () => {
  const db = source.tdb.database.db;
  w.company = await createCompany(db, 'Transfer Messaging Co');
  w.other = await createCompany(db, 'Other Co');
  w.bookings = [];
  for (const platformType of ['airbnb', 'booking', 'vrbo'] as const) w.bookings.push((await createBookingFor(db, w.company, { platformType })).bookingUid);
  // Both directions, every final and unfinished status, files, an error text, an app.
  for (const [i, bookingUid] of w.bookings.entries()) {
    const thread = (await threadOfBooking(db, w.company, { bookingUid }))!;
    const files = i === 0 ? [{ type: 'image', name: 'door.jpg', url: 'https://cdn.example/door.jpg', imageId: null, templateId: null }] : [];
    await insertMessage(db, w.company, thread.id, { direction: 'inbound', channel: 'platform', text: `Hello from guest ${i}`, sentDttm: `2026-05-0${i + 1} 10:00:00`, files });
    const out = await insertMessage(db, w.company, thread.id, { direction: 'outbound', channel: i === 1 ? 'email' : 'platform', text: `Welcome ${i} 😀`, appUid: 'app_transfer' });
    const status = ['completed', 'error', 'queued'][i]!;
    await db.execute(sql`update messages set status = ${status}, attempts = ${i}, message_error = ${status === 'error' ? 'guest gu_x has no email address' : null} where uid = ${out.uid}`);
  }
  await target.tdb.database.db.insert(companies).values({ uid: w.company, name: 'Transfer Messaging Co (copy)' });
  w.dir = mkdtempSync(path.join(tmpdir(), 'pops-msg-transfer-'));
  w.file = path.join(w.dir, 'messaging.jsonl');
});
afterAll(() => {
  if (w.dir) rmSync(w.dir, { recursive: true, force: true });
});

describe('threads and messages in export and import', () => {
  it('round-trip into an empty database, whatever the order of the lines', async () => {
    const exported = await cli(source.tdb, 'export', '--company', w.company, '--file', w.file);
    expect(exported.code, exported.stderr).toBe(0);
    const lines = readFileSync(w.file, 'utf8').trim().split('\n');
    expect(lines.filter((l) => l.startsWith('{"kind":"thread"'))).toHaveLength(3);
    expect(lines.filter((l) => l.startsWith('{"kind":"message"'))).toHaveLength(6);
    writeFileSync(w.file, `${[...lines].reverse().join('\n')}\n`);
    const imported = await cli(target.tdb, 'import', w.file, '--company', w.company);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('0 lines refused');
    const got = await dump(target.tdb, w.company);
    expect(got.msgs).toHaveLength(6);
    expect(got).toEqual(await dump(source.tdb, w.company));
    const changes = await target.tdb.database.db.execute<{ kind: string; n: number }>(
      sql`select kind, count(*)::int as n from changes where company_uid = ${w.company} and kind in ('thread', 'message') group by kind order by kind`,
    );
    expect(changes).toEqual([{ kind: 'message', n: 6 }, { kind: 'thread', n: 3 }]);
  });

  it('imports the same file again as a no-op', async () => {
    const before = await dump(target.tdb, w.company);
    const again = await cli(target.tdb, 'import', w.file, '--company', w.company);
    expect(again.code, again.stderr).toBe(0);
    expect(await dump(target.tdb, w.company)).toEqual(before);
  });

  it('refuses a message without a thread, a thread of an unknown booking and another company\'s message uid, by line', async () => {
    const lines = readFileSync(w.file, 'utf8').trim().split('\n');
    const message = JSON.parse(lines.find((l) => l.startsWith('{"kind":"message"'))!);
    const thread = JSON.parse(lines.find((l) => l.startsWith('{"kind":"thread"'))!);
    const db = target.tdb.database.db;
    await db.insert(companies).values({ uid: w.other, name: 'Other Co' });
    const otherBooking = await createBookingFor(db, w.other);
    const otherThread = (await threadOfBooking(db, w.other, { bookingUid: otherBooking.bookingUid }))!;
    const theirs = await insertMessage(db, w.other, otherThread.id, { direction: 'inbound', channel: 'platform', text: 'Theirs', sentDttm: '2026-05-01 10:00:00' });
    const bad = [
      { ...message, messageUid: 'msg_orphan', bookingUid: 'bk_nothread' },
      { ...thread, bookingUid: 'bk_unknown' },
      { ...message, messageUid: theirs.uid, messageText: 'Hijack' },
      { ...message, messageUid: 'msg_fine', messageText: 'Fine' },
    ];
    const file = path.join(w.dir, 'bad.jsonl');
    writeFileSync(file, `${bad.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const res = await cli(target.tdb, 'import', file, '--company', w.company);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/line 1: .*bookingUid bk_nothread has no thread/);
    expect(res.stderr).toMatch(/line 2: .*bookingUid names nothing of the company/);
    expect(res.stderr).toMatch(/line 3: .*belongs to another company/);
    const [theirRow] = await db.execute<{ message_text: string; company_uid: string }>(sql`select message_text, company_uid from messages where uid = ${theirs.uid}`);
    expect(theirRow).toEqual({ message_text: 'Theirs', company_uid: w.other });
    expect(await db.execute(sql`select 1 from messages where uid = 'msg_fine' and company_uid = ${w.company}`)).toHaveLength(1);
  });
});
