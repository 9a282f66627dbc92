import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../shared/app/runtime.js';
import { recordChange } from '../../shared/domain/changes/index.js';
import type { Database } from '../../shared/infra/db/client.js';
import { createCompany } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/*
 * The ordering proof of the change feed (docs/api.md "Told when anything changes"): many writers
 * whose transactions interleave at random (each holds its transaction open a random while, some
 * roll back), a reader following the cursors throughout. At the end every committed change was
 * seen exactly once, no rolled-back one ever, and each object's changes in commit order.
 *
 * A writer locks its object before recording (as a real write's row lock does: recordChange's
 * rule) and notes the object's next version under that lock, so the version is the object's
 * commit order; the version travels in the change's `event` column.
 */

const WRITERS = 12;
const t = useWorld();
let writersDb: Database;
let rt: Runtime;
let company: string;
const figures = { runs: 0, transactions: 0, committedChanges: 0, pages: 0 };

beforeAll(async () => {
  writersDb = t.connect({ max: WRITERS + 2 });
  rt = await t.runtime();
  company = await createCompany(t.tdb.database.db);
});
afterAll(async () => {
  console.log(`change-feed ordering proof: ${JSON.stringify(figures)}`);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface TxPlan {
  objects: number[];
  holdMs: number;
  beforeMs: number;
  rollback: boolean;
}

const txPlan = fc.record({
  objects: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 3 }),
  holdMs: fc.integer({ min: 0, max: 25 }),
  beforeMs: fc.integer({ min: 0, max: 10 }),
  rollback: fc.boolean().map((b) => b && Math.random() < 0.3),
});

describe('change feed ordering under concurrent writers', () => {
  it('a reader following cursors sees every committed change once, in commit order per object', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(txPlan, { minLength: 1, maxLength: 5 }), { minLength: WRITERS, maxLength: WRITERS }), async (writers) => {
        figures.runs++;
        const run = `r${figures.runs}_`;
        const versions = new Map<string, number>();
        const committed = new Map<string, number[]>();
        let writing = true;
        const seen: string[] = [];
        const first = await rt.services.changes.changes(company, [], { cursor: 'now', limit: 100, kinds: undefined });
        let cursor = first.meta.cursor;
        const reader = (async () => {
          // Reads until the writers are done and one more page comes back empty.
          for (;;) {
            const done = !writing;
            const page = await rt.services.changes.changes(company, [], { cursor, limit: 7, kinds: undefined });
            figures.pages++;
            for (const c of page.data) if (c.uid.startsWith(run)) seen.push(c.change_uid);
            cursor = page.meta.cursor;
            if (done && page.data.length === 0 && !page.meta.has_more) return;
            if (page.data.length === 0) await sleep(1);
          }
        })();
        await Promise.all(
          writers.map(async (plans) => {
            for (const plan of plans as TxPlan[]) {
              await sleep(plan.beforeMs);
              const mine: Array<[string, number]> = [];
              const attempt = writersDb.db.transaction(async (tx) => {
                // Objects locked in one order (as real writers do), so writers never deadlock.
                for (const o of [...new Set(plan.objects)].sort()) {
                  const uid = `${run}${o}`;
                  // The object's row lock, as a real write takes it.
                  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${uid}))`);
                  const v = (versions.get(uid) ?? 0) + 1;
                  versions.set(uid, v);
                  mine.push([uid, v]);
                  await recordChange(tx, { company, kind: 'property', objectUid: uid, event: String(v) });
                  await sleep(plan.holdMs / plan.objects.length);
                }
                if (plan.rollback) throw new Error('rolled back on purpose');
              });
              figures.transactions++;
              try {
                await attempt;
                for (const [uid, v] of mine) committed.set(uid, [...(committed.get(uid) ?? []), v]);
                figures.committedChanges += mine.length;
              } catch (err) {
                if ((err as Error).message !== 'rolled back on purpose') throw err;
                // Versions taken by a rolled-back transaction are not the object's: give them back
                // only if nobody took a later one (the lock is gone; the next writer numbers on).
              }
            }
          }),
        );
        writing = false;
        await reader;

        // change_uid -> (object, version), read once everything is stamped.
        const rows = (await t.tdb.database.db.execute(
          sql`select pos, object_uid, event from changes where object_uid like ${run + '%'} and pos is not null`,
        )) as unknown as Array<{ pos: number; object_uid: string; event: string }>;
        const byUid = new Map(rows.map((r) => [`ch_${r.pos}`, r]));
        expect(new Set(seen).size, 'a change was handed out twice').toBe(seen.length);
        const seenPerObject = new Map<string, number[]>();
        for (const uid of seen) {
          const r = byUid.get(uid);
          expect(r, `handed out ${uid}, which is no committed change`).toBeDefined();
          seenPerObject.set(r!.object_uid, [...(seenPerObject.get(r!.object_uid) ?? []), Number(r!.event)]);
        }
        expect(seen.length, 'every committed change is seen').toBe(rows.length);
        for (const [uid, vs] of committed) {
          // Seen in commit order, and exactly the committed versions. The commit order of an object
          // is its version order (taken under the lock held to COMMIT), not the order in which this
          // process saw the commits answered: two connections' answers may arrive in either order on
          // a busy machine (CI saw [.., 7, 6, ..] recorded for a feed that was right with 6, 7).
          expect(seenPerObject.get(uid), `changes of ${uid}`).toEqual([...vs].sort((a, b) => a - b));
        }
      }),
      { numRuns: 20, endOnFailure: true },
    );
    expect(figures.committedChanges).toBeGreaterThan(0);
  }, 300_000);
});
