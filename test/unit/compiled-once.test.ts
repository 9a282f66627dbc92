import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { compiledOnce } from '../../shared/infra/db/compiled.js';

const dialect = new PgDialect();
const build = (uid: string, note: string) => sql`select ${uid}::text as a, ${42} as n, ${note}::text as b where ${uid} <> ${'fixed'} and ${sql.raw('true')}`;

describe('compiledOnce', () => {
  it('answers what compiling the statement anew answers, for every call', () => {
    const q = compiledOnce(build);
    for (const [uid, note] of [['rq_1', 'past'], ['rq_2', 'other'], ['', 'x']] as const) {
      const fresh = dialect.sqlToQuery(build(uid, note));
      expect(q(uid, note)).toEqual({ sql: fresh.sql, params: fresh.params });
    }
  });

  it('builds the statement once', () => {
    let builds = 0;
    const q = compiledOnce((uid: string) => (builds++, sql`select ${uid}`));
    q('a');
    q('b');
    expect(builds).toBe(1);
  });

  it('refuses an argument used in the statement text, or inside a larger parameter', () => {
    expect(() => compiledOnce((uid: string) => sql`select ${sql.raw(`'${uid}'`)}`)('a')).toThrow(/statement text/);
    expect(() => compiledOnce((uid: string) => sql`select ${JSON.stringify({ uid })}::jsonb`)('a')).toThrow(/larger parameter/);
  });
});
