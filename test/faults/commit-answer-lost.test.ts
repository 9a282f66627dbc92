import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../shared/infra/db/client.js';
import { startPgProxy, type PgProxy } from '../support/pg-proxy.js';
import { useWorld } from '../support/world.js';

/*
 * A transaction whose COMMIT ran but whose answer never came back (issue 39 M2, and issue 37: the
 * transaction's id is read in the same write as its COMMIT). Between the client and Postgres sits
 * a proxy that, once armed, holds Postgres's answers from the id's read on and cuts both
 * connections when COMMIT's answer comes: either after passing on the id's answer (the client
 * knows which transaction to ask about), or without it (it cannot know whether COMMIT ran). And a
 * read of the id that fails: the server then aborts the transaction, and answers its COMMIT with a
 * rollback that postgres.js does not report.
 */

const w = useWorld();

/** Cut COMMIT's answer after the id's, or before it; or make the id's read fail (an unknown function). */
type Cut = 'after-id' | 'before-id' | 'fail-id';
let proxy: PgProxy;
let armed: Cut | undefined;
let cuts = 0;
const COMMIT_DONE = Buffer.from('COMMIT\0');
const ID_READ = Buffer.from('pg_current_xact_id_if_assigned');
/** Whether the id's read and COMMIT reached the proxy in one write of the client (one round trip). */
let idWithCommit: boolean | undefined;

beforeAll(async () => {
  proxy = await startPgProxy(w, (client, server, cut) => {
    let holding: Buffer | undefined;
    client.on('data', (d: Buffer) => {
      if (armed === 'fail-id' && d.includes(ID_READ)) {
        const at = d.indexOf(ID_READ) + ID_READ.length - 1;
        d = Buffer.concat([d.subarray(0, at), Buffer.from('x'), d.subarray(at + 1)]);
        armed = undefined;
      } else if (armed && d.includes(ID_READ)) {
        holding ??= Buffer.alloc(0);
        idWithCommit = d.includes(Buffer.from('commit'));
      }
      server.write(d);
    });
    server.on('data', (d: Buffer) => {
      if (!holding) return void client.write(d);
      holding = Buffer.concat([holding, d]);
      const at = holding.indexOf(COMMIT_DONE);
      if (at < 0) return;
      // COMMIT's CommandComplete message starts 5 bytes before its tag ('C' and a length).
      if (armed === 'after-id') client.write(holding.subarray(0, at - 5));
      armed = undefined;
      cuts++;
      cut();
    });
  });
  await w.tdb.database.sql`create table commit_lost_probe (x int)`;
});

afterAll(() => proxy.close());

const throughProxy = (): Database => proxy.connect();

async function rowsOf(x: number): Promise<number> {
  const [row] = await w.tdb.database.sql<{ n: number }[]>`select count(*)::int as n from commit_lost_probe where x = ${x}`;
  return row?.n ?? -1;
}

describe('a transaction whose COMMIT ran and whose answer was lost', () => {
  it('with its id read: asks the server, finds it committed, and answers as committed without running it again', async () => {
    const db = throughProxy();
    await db.sql`select 1`;
    let attempts = 0;
    armed = 'after-id';
    const outcome = await db.db.transaction(async (t) => {
      attempts++;
      await t.execute(sql`insert into commit_lost_probe values (701)`);
      return 'done';
    });
    expect(cuts).toBe(1);
    expect(idWithCommit).toBe(true);
    expect(outcome).toBe('done');
    expect(attempts).toBe(1);
    expect(await rowsOf(701)).toBe(1);
  });

  it("without its id's answer: fails (the outcome is unknown) and does not run it again", async () => {
    const db = throughProxy();
    await db.sql`select 1`;
    let attempts = 0;
    armed = 'before-id';
    const outcome = await db.db
      .transaction(async (t) => {
        attempts++;
        await t.execute(sql`insert into commit_lost_probe values (702)`);
        return 'done';
      })
      .then(
        () => 'answered',
        (err: unknown) => `failed: ${String((err as { code?: string }).code ?? err)}`,
      );
    expect(cuts).toBe(2);
    expect(outcome).toMatch(/^failed: /);
    expect(attempts).toBe(1);
    // COMMIT ran: the row is there once (running it again would have stored it twice).
    expect(await rowsOf(702)).toBe(1);
  });

  it("whose id's read failed: fails, though postgres.js reads the COMMIT's rollback as success", async () => {
    const db = throughProxy();
    await db.sql`select 1`;
    armed = 'fail-id';
    const outcome = await db.db
      .transaction(async (t) => {
        await t.execute(sql`insert into commit_lost_probe values (703)`);
        return 'done';
      })
      .then(
        () => 'answered',
        (err: unknown) => `failed: ${String((err as { code?: string }).code ?? err)}`,
      );
    // 42883: pg_current_xact_id_if_assignex does not exist. The server rolled the transaction back.
    expect(outcome).toBe('failed: 42883');
    expect(await rowsOf(703)).toBe(0);
  });
});
