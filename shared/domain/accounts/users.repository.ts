import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.js';
import { companies, signInThrottle, users, type UserRole } from '../../infra/db/schema/index.js';
import { newUid } from '../../infra/ids.js';

export interface UserRow {
  uid: string;
  companyUid: string;
  email: string;
  name: string;
  role: UserRole;
  passwordHash: string;
  disabled: boolean;
}

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  const rows = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return rows[0];
}

export async function findUser(db: Executor, uid: string): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(eq(users.uid, uid)).limit(1);
  return rows[0];
}

export async function insertUser(
  db: Executor,
  user: { companyUid: string; email: string; name: string; role: UserRole; passwordHash: string },
): Promise<string> {
  const uid = newUid('usr_');
  await db.insert(users).values({ uid, ...user });
  return uid;
}

export async function updateUserByEmail(
  db: Executor,
  email: string,
  set: { passwordHash?: string; disabled?: boolean },
): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ ...set, updatedAt: sql`now()` })
    .where(sql`lower(${users.email}) = lower(${email})`)
    .returning({ uid: users.uid });
  return rows.length > 0;
}

export async function usersOfCompany(db: Executor, companyUid: string): Promise<UserRow[]> {
  return db.select().from(users).where(and(eq(users.companyUid, companyUid))).orderBy(users.email);
}

/** The lock of an email, if one is in force, and whether `address` is one of those that failed on it. */
export async function lockOf(db: Executor, emailKey: string, address: string): Promise<{ until: Date; addressFailed: boolean } | undefined> {
  const rows = await db
    .select({ until: signInThrottle.lockedUntil, addressFailed: sql<boolean>`${address} = any(${signInThrottle.failedAddresses})` })
    .from(signInThrottle)
    .where(and(eq(signInThrottle.email, emailKey), sql`${signInThrottle.lockedUntil} > now()`));
  const row = rows[0];
  return row?.until ? { until: row.until, addressFailed: row.addressFailed } : undefined;
}

/** Addresses kept per email (newest): a flood of addresses cannot grow the row without bound. */
const FAILED_ADDRESSES_KEPT = 200;

/**
 * Counts a failed sign-in of the email in one statement (racing processes add up): a window older
 * than `windowSeconds` starts over; the `max`-th failure within it locks the email for
 * `lockSeconds`. The failing address is remembered with the email (what a lock refuses).
 */
export async function recordFailure(
  db: Executor,
  emailKey: string,
  address: string,
  limits: { max: number; windowSeconds: number; lockSeconds: number },
): Promise<void> {
  const window = sql`make_interval(secs => ${limits.windowSeconds})`;
  await db.execute(sql`
    insert into sign_in_throttle as t (email, failures, window_started_at, locked_until, failed_addresses)
    values (${emailKey}, 1, now(), case when ${limits.max} <= 1 then now() + make_interval(secs => ${limits.lockSeconds}) end, array[${address}::text])
    on conflict (email) do update set
      failed_addresses = case
        when t.window_started_at < now() - ${window} and not coalesce(t.locked_until > now(), false) then array[${address}::text]
        when ${address}::text = any(t.failed_addresses) then t.failed_addresses
        else (t.failed_addresses || ${address}::text)[greatest(1, cardinality(t.failed_addresses) + 2 - ${FAILED_ADDRESSES_KEPT}::int):]
      end,
      failures = case when t.window_started_at < now() - ${window} then 1 else t.failures + 1 end,
      window_started_at = case when t.window_started_at < now() - ${window} then now() else t.window_started_at end,
      locked_until = case
        when (case when t.window_started_at < now() - ${window} then 1 else t.failures + 1 end) >= ${limits.max}
          then now() + make_interval(secs => ${limits.lockSeconds})
        else t.locked_until end`);
}

export async function clearFailures(db: Executor, emailKey: string): Promise<void> {
  await db.delete(signInThrottle).where(eq(signInThrottle.email, emailKey));
}

/** The repository its service is given by the composition root (shared/app/services.ts). */
/** The name and time zone of a user's company (the console shows both). */
export async function companyOfUser(db: Executor, companyUid: string): Promise<{ name: string; timeZone: string } | undefined> {
  const [row] = await db.select({ name: companies.name, timeZone: companies.timeZone }).from(companies).where(eq(companies.uid, companyUid));
  return row;
}

export const usersRepository = { companyOfUser, findUserByEmail, findUser, insertUser, updateUserByEmail, usersOfCompany, lockOf, recordFailure, clearFailures };
export type UsersRepository = typeof usersRepository;
