import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../shared/infra/db/client.js';
import { idempotent, type IdempotencyKey, type KeyClaim } from '../../shared/platform/idempotency/index.js';
import { insertRequests, type InsertGuard } from '../../shared/platform/requests/index.js';
import { startPgProxy, type PgProxy } from '../support/pg-proxy.js';
import { createCompany, createProperty } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/*
 * A calendar batch with an Idempotency-Key stored by one statement sent alone (issue 37): the key
 * claimed, the requests inserted and the answer stored together, without BEGIN and COMMIT
 * (claimWithAnswerSql, InsertOptions.keyed). What a key must still do: replay, 409 for another
 * body, one answer for two sends at once, a lost answer settled, a refused token storing nothing.
 */

const w = useWorld();
let proxy: PgProxy;
let armed = false;
let cuts = 0;
/** What the client wrote to the server, one entry per chunk received, while `recording`. */
let recording: string[] | undefined;
/** A request uid in an answer: the keyed statement's rows. */
const REQUEST_UID = Buffer.from('rq_');

beforeAll(async () => {
  proxy = await startPgProxy(w, (client, server, cut) => {
    client.on('data', (d: Buffer) => {
      recording?.push(d.toString('latin1'));
      server.write(d);
    });
    server.on('data', (d: Buffer) => {
      if (armed && d.includes(REQUEST_UID)) {
        armed = false;
        cuts++;
        return cut();
      }
      client.write(d);
    });
  });
});

afterAll(() => proxy.close());

let company = '';
let property = '';
beforeAll(async () => {
  company = await createCompany(w.tdb.database.db);
  property = await createProperty(w.tdb.database.db, company);
});

const chunksOf = (price: number) => [[{ date: '2031-03-01', price, currency: 'USD' }], [{ date: '2031-03-02', price, currency: 'USD' }]];
const answerOf = (uids: string[]) => ({ data: { request_uids: uids, warnings: {} } });

/** set-calendar-batch's store through idempotent(): the insert alone, the key claimed in it. */
function submit(db: Database, key: string, price: number, guard?: InsertGuard) {
  const k: IdempotencyKey = { tokenUid: 'tok_keyed', companyUid: company, key, body: { price } };
  const store = async (claim: KeyClaim) => answerOf(await insertRequests(db.db, company, property, chunksOf(price), [], { alone: db.db, guard, keyed: { claim, answer: answerOf } }));
  return idempotent(db.db, 24, k, () => Promise.reject(new Error('the transaction path is not taken')), store);
}

async function requestsOf(uids: readonly string[]): Promise<number> {
  const [row] = await w.tdb.database.sql<{ n: number }[]>`select count(*)::int as n from calendar_requests where uid = any(${uids as string[]})`;
  return row?.n ?? -1;
}

async function keyRow(key: string) {
  return w.tdb.database.sql<{ status: number; response: unknown }[]>`select status, response from idempotency_keys where token_uid = 'tok_keyed' and key = ${key}`;
}

const count = async () => (await w.tdb.database.sql<{ n: number }[]>`select count(*)::int as n from calendar_requests where property_uid = ${property}`)[0]?.n ?? -1;

describe('a keyed calendar batch stored by one statement', () => {
  it('is one write to the server, with no BEGIN or COMMIT, and stores the key with its answer', async () => {
    const db = proxy.connect();
    await submit(db, 'k-warm', 1); // prepared once
    recording = [];
    const outcome = await submit(db, 'k-one', 2);
    const writes = recording;
    recording = undefined;
    expect(writes).toHaveLength(1);
    expect(writes[0]).not.toMatch(/begin|commit/i);
    expect(outcome.replayed).toBe(false);
    expect(outcome.answer.data.request_uids).toHaveLength(2);
    expect(await requestsOf(outcome.answer.data.request_uids)).toBe(2);
    expect(await keyRow('k-one')).toEqual([{ status: 200, response: outcome.answer }]);
  });

  it('replays the first answer for the same key and body, storing nothing more', async () => {
    const first = await submit(w.tdb.database, 'k-again', 3);
    const before = await count();
    const second = await submit(w.tdb.database, 'k-again', 3);
    expect(second).toEqual({ answer: first.answer, replayed: true });
    expect(await count()).toBe(before);
  });

  it('answers 409 for the key with another body, storing nothing', async () => {
    await submit(w.tdb.database, 'k-other', 4);
    const before = await count();
    const err = await submit(w.tdb.database, 'k-other', 5).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 409 });
    expect(await count()).toBe(before);
  });

  it('keeps one answer when the same key is sent twice at once', async () => {
    const before = await count();
    const [a, b] = await Promise.all([submit(w.tdb.database, 'k-twice', 6), submit(w.tdb.database, 'k-twice', 6)]);
    expect(a?.answer).toEqual(b?.answer);
    expect([a?.replayed, b?.replayed].sort()).toEqual([false, true]);
    expect(await count()).toBe(before + 2);
  });

  it('takes over a key past its TTL: the batch is stored and its answer replaces the old one', async () => {
    const old = await submit(w.tdb.database, 'k-old', 7);
    await w.tdb.database.sql`update idempotency_keys set created_at = now() - interval '25 hours' where token_uid = 'tok_keyed' and key = 'k-old'`;
    const again = await submit(w.tdb.database, 'k-old', 8);
    expect(again.replayed).toBe(false);
    expect(again.answer).not.toEqual(old.answer);
    expect(await requestsOf(again.answer.data.request_uids)).toBe(2);
    expect(await keyRow('k-old')).toEqual([{ status: 200, response: again.answer }]);
  });

  it('stores nothing, not even the key, when its guard fails (a token revoked since it was cached)', async () => {
    const refused = new Error('token refused');
    const guard: InsertGuard = { where: sql`false`, refused: () => refused };
    const before = await count();
    await expect(submit(w.tdb.database, 'k-refused', 9, guard)).rejects.toBe(refused);
    expect(await count()).toBe(before);
    expect(await keyRow('k-refused')).toEqual([]);
  });

  it('whose answer was lost after it committed: answered with its uids, stored once, the key answered', async () => {
    const db = proxy.connect();
    await submit(db, 'k-warm-2', 10);
    const before = { cuts, rows: await count() };
    armed = true;
    const outcome = await submit(db, 'k-lost', 11);
    expect(cuts).toBe(before.cuts + 1);
    expect(outcome.replayed).toBe(false);
    expect(await count()).toBe(before.rows + 2);
    expect(await requestsOf(outcome.answer.data.request_uids)).toBe(2);
    expect(await keyRow('k-lost')).toEqual([{ status: 200, response: outcome.answer }]);
  });
});
