import { PgDialect } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { inUids } from '../../shared/infra/db/uid-list.js';

describe('inUids: a list of uids as one parameter', () => {
  it('sends the uids joined by commas, split by Postgres', () => {
    const q = new PgDialect().sqlToQuery(inUids(sql`uid`, ['msg_a', 'msg_b']));
    expect(q.sql).toBe("uid = any(string_to_array($1, ','))");
    expect(q.params).toEqual(['msg_a,msg_b']);
  });

  it('refuses a uid that holds a comma instead of splitting it into two', () => {
    expect(() => inUids(sql`uid`, ['msg_a', 'msg_b,msg_c'])).toThrow(/holds a comma/);
  });
});
