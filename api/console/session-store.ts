import { randomBytes } from 'node:crypto';
import { eq, lt, sql } from 'drizzle-orm';
import session, { type SessionData } from 'express-session';
import type { Db } from '../../shared/infra/db/client.js';
import { consoleSessions, sharedSecrets } from '../../shared/infra/db/schema/index.js';

/*
 * express-session's store over the service's own Postgres pool and migrations (table
 * console_sessions), so any number of API processes share the sessions. connect-pg-simple would
 * need a second pool (pg) and a table outside the migrations; this store is the five calls
 * express-session asks of one.
 */

type Callback<T = void> = (err?: unknown, value?: T) => void;

export class PostgresSessionStore extends session.Store {
  constructor(
    private readonly db: Db,
    private readonly idleMs: number,
  ) {
    super();
  }

  private expiry(sess: SessionData): Date {
    const cookieExpiry = sess.cookie?.expires ? new Date(sess.cookie.expires) : undefined;
    return cookieExpiry ?? new Date(Date.now() + this.idleMs);
  }

  override get(sid: string, cb: Callback<SessionData | null>): void {
    this.db
      .select({ sess: consoleSessions.sess })
      .from(consoleSessions)
      .where(sql`${consoleSessions.sid} = ${sid} and ${consoleSessions.expiresAt} > now()`)
      .then((rows) => cb(undefined, (rows[0]?.sess as SessionData | undefined) ?? null), cb);
  }

  override set(sid: string, sess: SessionData, cb?: Callback): void {
    const expiresAt = this.expiry(sess);
    this.db
      .insert(consoleSessions)
      .values({ sid, sess, expiresAt })
      .onConflictDoUpdate({ target: consoleSessions.sid, set: { sess, expiresAt } })
      .then(() => cb?.(), (err) => cb?.(err));
  }

  override touch(sid: string, sess: SessionData, cb?: Callback): void {
    this.db
      .update(consoleSessions)
      .set({ expiresAt: this.expiry(sess) })
      .where(eq(consoleSessions.sid, sid))
      .then(() => cb?.(), (err) => cb?.(err));
  }

  override destroy(sid: string, cb?: Callback): void {
    this.db
      .delete(consoleSessions)
      .where(eq(consoleSessions.sid, sid))
      .then(() => cb?.(), (err) => cb?.(err));
  }

  /** Removes expired sessions (called now and then by the console; never needed for correctness). */
  async prune(): Promise<void> {
    await this.db.delete(consoleSessions).where(lt(consoleSessions.expiresAt, sql`now()`));
  }
}

/**
 * The cookie-signing secret every API process shares without configuration: made by the first
 * process that needs it, kept in the database (shared_secrets).
 */
export async function sharedSecret(db: Db, name: string): Promise<string> {
  await db
    .insert(sharedSecrets)
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const rows = await db.select({ value: sharedSecrets.value }).from(sharedSecrets).where(eq(sharedSecrets.name, name));
  return rows[0]!.value;
}
