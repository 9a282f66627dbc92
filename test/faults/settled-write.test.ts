import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Executor } from '../../shared/infra/db/client.js';
import { settledWrite, settleLockSql } from '../../shared/infra/db/settled-write.js';
import { appendOutbound, threadOfBooking } from '../../shared/domain/messaging/index.js';
import { insertRequests } from '../../shared/platform/requests/index.js';
import { createBookingFor } from '../support/messaging.js';
import { startPgProxy, type PgProxy } from '../support/pg-proxy.js';
import { createCompany, createProperty } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/*
 * A write sent alone (no BEGIN, no COMMIT: settled-write.ts) whose connection is lost: its answer
 * lost after it committed, the statement never reaching the server, or the statement still running
 * when the connection went. Each is settled by what it wrote: answered as committed, or run again,
 * and never written twice. Between the client and Postgres sits a proxy that, once armed, cuts the
 * connection at the chosen moment.
 */

const w = useWorld();
type Cut = 'answer' | 'before-server' | 'while-running' | 'answer-with-message';
let proxy: PgProxy;
let armed: Cut | undefined;
let cuts = 0;
/** What the client wrote to the server, one entry per chunk received, while `recording`. */
let recording: string[] | undefined;
const PROBE = Buffer.from('settled_probe');
/** The statement the proxy's cut waits for. */
let MARK = PROBE;
const INSERTED = Buffer.from('INSERT 0 ');
/** A new message's uid in an answer (appendOutbound's is its only row). */
const MESSAGE_UID = Buffer.from('msg_');

beforeAll(async () => {
  proxy = await startPgProxy(w, (client, server, cut) => {
    client.on('data', (d: Buffer) => {
      recording?.push(d.toString('latin1'));
      if (armed === 'before-server' && d.includes(MARK)) {
        armed = undefined;
        cuts++;
        return cut();
      }
      server.write(d);
      if (armed === 'while-running' && d.includes(MARK)) {
        armed = undefined;
        cuts++;
        setTimeout(cut, 100);
      }
    });
    server.on('data', (d: Buffer) => {
      if ((armed === 'answer' && d.includes(INSERTED)) || (armed === 'answer-with-message' && d.includes(MESSAGE_UID))) {
        armed = undefined;
        cuts++;
        return cut();
      }
      client.write(d);
    });
  });
  await w.tdb.database.sql`create table settled_probe (uid text primary key, n int not null)`;
});

afterAll(() => proxy.close());

/** One row under `uid`, written alone (after `sleep` seconds inside the statement), settled by looking for it. */
function writeRow(db: Database, uid: string, sleep = 0) {
  const find = async (ex: Executor) => {
    const rows = await ex.execute<{ uid: string }>(sql`select uid from settled_probe where uid = ${uid}`);
    return rows.length > 0 ? rows.map((r) => r.uid) : undefined;
  };
  const write = async () => {
    const rows = await db.db.execute<{ uid: string }>(sql`
      with ${settleLockSql(uid)}
      insert into settled_probe (uid, n) select ${uid}, 1 where (select count(*) from settle) >= 0 and (select true from pg_sleep(${sleep}))
      returning uid`);
    return rows.map((r) => r.uid);
  };
  return settledWrite(db.db, uid, write, find);
}

async function rowsOf(uid: string): Promise<number> {
  const [row] = await w.tdb.database.sql<{ n: number }[]>`select count(*)::int as n from settled_probe where uid = ${uid}`;
  return row?.n ?? -1;
}

describe('a write sent alone whose connection is lost', () => {
  it('whose answer was lost after it committed: finds its row and answers as committed, without writing it again', async () => {
    const db = proxy.connect();
    const before = cuts;
    armed = 'answer';
    expect(await writeRow(db, 'sw_answer')).toEqual(['sw_answer']);
    expect(cuts).toBe(before + 1);
    expect(await rowsOf('sw_answer')).toBe(1);
  });

  it('that never reached the server: finds nothing and runs it again', async () => {
    const db = proxy.connect();
    const before = cuts;
    armed = 'before-server';
    expect(await writeRow(db, 'sw_before')).toEqual(['sw_before']);
    expect(cuts).toBe(before + 1);
    expect(await rowsOf('sw_before')).toBe(1);
  });

  it('still running on the server when its connection went: waits for it to end, then finds its row', async () => {
    const db = proxy.connect();
    const before = cuts;
    armed = 'while-running';
    expect(await writeRow(db, 'sw_running', 0.6)).toEqual(['sw_running']);
    expect(cuts).toBe(before + 1);
    expect(await rowsOf('sw_running')).toBe(1);
  });
});

describe('insertRequests alone (a calendar batch without an Idempotency-Key)', () => {
  it('is one write to the server, and its lost answer is settled: the batch stored once, answered with its uids', async () => {
    const company = await createCompany(w.tdb.database.db);
    const property = await createProperty(w.tdb.database.db, company);
    const db = proxy.connect();
    const chunks = [[{ date: '2031-01-01', price: 100, currency: 'USD' }], [{ date: '2031-01-02', price: 101, currency: 'USD' }]];
    await insertRequests(db.db, company, property, chunks, [], { alone: db.db }); // prepared once
    recording = [];
    const uids = await insertRequests(db.db, company, property, chunks, [], { alone: db.db });
    const writes = recording;
    recording = undefined;
    expect(uids).toHaveLength(2);
    expect(writes).toHaveLength(1);
    expect(writes[0]).not.toMatch(/begin|commit/i);

    armed = 'answer';
    const settled = await insertRequests(db.db, company, property, chunks, [], { alone: db.db });
    expect(settled).toHaveLength(2);
    const rows = await w.tdb.database.sql<{ uid: string }[]>`select uid from calendar_requests where property_uid = ${property} order by seq`;
    expect(rows).toHaveLength(6);
    expect(rows.slice(4).map((r) => r.uid)).toEqual(settled);
  });

  it('still running on the server when its connection went (waiting for a lock): waits for it to end, the batch stored once', async () => {
    const company = await createCompany(w.tdb.database.db);
    const property = await createProperty(w.tdb.database.db, company);
    const db = proxy.connect();
    // The property's row locked for 700 ms: the insert's foreign-key check waits behind it, holding its settle lock.
    let locked!: () => void;
    const lockTaken = new Promise<void>((r) => (locked = r));
    const holder = w.tdb.database.sql.begin(async (tx) => {
      await tx`select 1 from properties where uid = ${property} for update`;
      locked();
      await new Promise((r) => setTimeout(r, 700));
    });
    await lockTaken;
    MARK = Buffer.from('insert into calendar_requests');
    armed = 'while-running';
    const before = cuts;
    try {
      const uids = await insertRequests(db.db, company, property, [[{ date: '2031-02-01', price: 100, currency: 'USD' }]], [], { alone: db.db });
      expect(cuts).toBe(before + 1);
      expect(uids).toHaveLength(1);
      const rows = await w.tdb.database.sql<{ uid: string }[]>`select uid from calendar_requests where property_uid = ${property}`;
      expect(rows.map((r) => r.uid)).toEqual(uids);
    } finally {
      MARK = PROBE;
      await holder;
    }
  });
});

describe('appendOutbound alone (a message to a guest without an Idempotency-Key)', () => {
  it('whose answer was lost after it committed: answered with its uid, the message stored once (a retry of a 503 would send it twice)', async () => {
    const company = await createCompany(w.tdb.database.db);
    const booking = (await createBookingFor(w.tdb.database.db, company)).bookingUid;
    const thread = (await threadOfBooking(w.tdb.database.db, company, { bookingUid: booking }))!.id;
    const db = proxy.connect();
    const to = { threadId: thread };
    await appendOutbound(db.db, company, to, { channel: 'email', text: 'warm-up' }, undefined, db.db); // prepared once
    const before = cuts;
    armed = 'answer-with-message';
    const uid = await appendOutbound(db.db, company, to, { channel: 'email', text: 'the one' }, undefined, db.db);
    expect(cuts).toBe(before + 1);
    const rows = await w.tdb.database.sql<{ uid: string }[]>`select uid from messages where thread_id = ${thread} and message_text = 'the one'`;
    expect(rows.map((r) => r.uid)).toEqual([uid]);
  });
});
