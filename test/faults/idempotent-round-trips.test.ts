import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../shared/infra/db/client.js';
import { startPgProxy, type PgProxy } from '../support/pg-proxy.js';
import { idempotent, type IdempotencyKey } from '../../shared/platform/idempotency/index.js';
import { useWorld } from '../support/world.js';

/*
 * idempotent() with a key (issue 37): the key's claim goes out with the write's first statement,
 * and the answer is stored in the write that carries the COMMIT, so a keyed write is three writes
 * to the server (BEGIN; claim and write; answer, id and COMMIT), not five. What that must not cost:
 * a key in use rolls back the write that ran beside its claim, and answers the stored answer even
 * when that write failed; an answer that could not be stored commits nothing.
 */

const w = useWorld();
let proxy: PgProxy;
/** What the client wrote to the server, one entry per chunk received, while `recording`. */
let recording: string[] | undefined;

beforeAll(async () => {
  proxy = await startPgProxy(w, (client, server) => {
    client.on('data', (d: Buffer) => {
      recording?.push(d.toString('latin1'));
      server.write(d);
    });
    server.on('data', (d: Buffer) => client.write(d));
  });
  await w.tdb.database.sql`create table idem_probe (x int)`;
  // Storing the answer of key 'refused' fails (the answer's update is the only write of status 200).
  await w.tdb.database.sql.unsafe(`
    create function idem_refuse() returns trigger language plpgsql as $$
    begin
      if new.key = 'refused' and new.status = 200 then raise exception 'answer refused'; end if;
      return new;
    end $$;
    create trigger idem_refuse before update on idempotency_keys for each row execute function idem_refuse()`);
  const [company] = await w.tdb.database.sql<{ uid: string }[]>`insert into companies (uid, name) values ('co_idem', 'Idem') returning uid`;
  expect(company?.uid).toBe('co_idem');
});

afterAll(() => proxy.close());

const throughProxy = (): Database => proxy.connect();

const keyOf = (key: string, body: unknown = { x: 1 }): IdempotencyKey => ({ tokenUid: 'tok_idem', companyUid: 'co_idem', key, body });

async function rowsOf(x: number): Promise<number> {
  const [row] = await w.tdb.database.sql<{ n: number }[]>`select count(*)::int as n from idem_probe where x = ${x}`;
  return row?.n ?? -1;
}

/** A write of one row, answering `answer`. */
const insertRow = (x: number, answer: unknown) => async (tx: Parameters<Parameters<typeof idempotent>[3]>[0]) => {
  await tx.execute(sql`insert into idem_probe values (${x})`);
  return answer;
};

describe('idempotent() with a key', () => {
  it('is three writes to the server once its statements are prepared: BEGIN; the claim with the write; the answer with the id read and COMMIT', async () => {
    const db = throughProxy();
    // Once before: a statement's first run prepares it (a round trip of its own).
    await idempotent(db.db, 24, keyOf('trips-warm'), insertRow(800, { n: 800 }));
    recording = [];
    const outcome = await idempotent(db.db, 24, keyOf('trips'), insertRow(801, { n: 801 }));
    const writes = recording;
    recording = undefined;
    expect(outcome).toEqual({ answer: { n: 801 }, replayed: false });
    expect(writes).toHaveLength(3);
    expect(writes[0]).toMatch(/begin/);
    // Prepared statements go by name: count their Execute messages ('E', length 9).
    const executes = (chunk: string | undefined) => (chunk ?? '').split('E\0\0\0\t').length - 1;
    expect(executes(writes[1])).toBe(2);
    expect(executes(writes[2])).toBe(2);
    expect(writes[2]).toMatch(/pg_current_xact_id_if_assigned/);
    expect(await rowsOf(801)).toBe(1);
  });

  it('rolls back the write that ran beside the claim of a key already answered, and replays the answer', async () => {
    await idempotent(w.tdb.database.db, 24, keyOf('again'), insertRow(802, { n: 802 }));
    const second = await idempotent(w.tdb.database.db, 24, keyOf('again'), insertRow(803, { n: 803 }));
    expect(second).toEqual({ answer: { n: 802 }, replayed: true });
    expect(await rowsOf(802)).toBe(1);
    expect(await rowsOf(803)).toBe(0);
  });

  it('replays the stored answer though the write beside the claim failed in the database', async () => {
    await idempotent(w.tdb.database.db, 24, keyOf('failing'), insertRow(804, { n: 804 }));
    const second = await idempotent(w.tdb.database.db, 24, keyOf('failing'), async (tx) => {
      await tx.execute(sql`select 1 / 0`);
      return { n: 0 };
    });
    expect(second).toEqual({ answer: { n: 804 }, replayed: true });
  });

  it('answers 409 for the key with another body, and commits nothing of that write', async () => {
    await idempotent(w.tdb.database.db, 24, keyOf('other', { x: 1 }), insertRow(805, { n: 805 }));
    const err = await idempotent(w.tdb.database.db, 24, keyOf('other', { x: 2 }), insertRow(806, { n: 806 })).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 409 });
    expect(await rowsOf(806)).toBe(0);
  });

  it('commits nothing when the answer could not be stored (a retry of the key then writes once)', async () => {
    const err = await idempotent(w.tdb.database.db, 24, keyOf('refused'), insertRow(807, { n: 807 })).catch((e: unknown) => e);
    expect(String(err)).toMatch(/answer refused|current transaction is aborted/);
    expect(await rowsOf(807)).toBe(0);
    const [key] = await w.tdb.database.sql<{ n: number }[]>`select count(*)::int as n from idempotency_keys where key = 'refused'`;
    expect(key?.n).toBe(0);
  });

  it('takes over a key past its TTL as new: the write runs and its answer replaces the old one', async () => {
    await idempotent(w.tdb.database.db, 24, keyOf('old'), insertRow(808, { n: 808 }));
    await w.tdb.database.sql`update idempotency_keys set created_at = now() - interval '25 hours' where key = 'old'`;
    const again = await idempotent(w.tdb.database.db, 24, keyOf('old', { x: 9 }), insertRow(809, { n: 809 }));
    expect(again).toEqual({ answer: { n: 809 }, replayed: false });
    expect(await rowsOf(809)).toBe(1);
  });
});
