import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { inSequence } from '../../shared/infra/db/in-sequence.js';
import { useWorld } from '../support/world.js';

const world = useWorld({ blank: true });

/** inSequence (issue 37): statements sent together on one connection, run in order, each committing on its own. */
describe('inSequence', () => {
  it('runs the statements on one connection, in order: the second sees what the first committed', async () => {
    const db = world.tdb.database;
    await db.sql`create table seq_probe (n int)`;
    for (let round = 0; round < 20; round++) {
      const [first, second] = await inSequence(db, [
        sql`insert into seq_probe values (${round}) returning pg_backend_pid() as pid`,
        sql`select pg_backend_pid() as pid, (select count(*)::int from seq_probe where n = ${round}) as seen`,
      ]);
      expect(second?.[0]?.pid).toBe(first?.[0]?.pid);
      expect(second?.[0]?.seen).toBe(1);
    }
  });

  it('a statement that fails does not stop the ones after it; its error is thrown', async () => {
    const db = world.tdb.database;
    await db.sql`create table seq_after (n int)`;
    const run = inSequence(db, [sql`select 1 / 0`, sql`insert into seq_after values (1)`]);
    await expect(run).rejects.toMatchObject({ code: '22012' });
    expect((await db.sql`select count(*)::int as n from seq_after`)[0]?.n).toBe(1);
  });
});
