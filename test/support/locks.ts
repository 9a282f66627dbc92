import postgres from 'postgres';

/** Holds the row lock `lock` takes in a transaction of its own until released; resolves once held. */
async function holdLock(url: string, lock: (t: postgres.TransactionSql) => Promise<unknown>): Promise<() => Promise<void>> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => (locked = r));
  const tx = sql.begin(async (t) => {
    await lock(t);
    locked();
    await held;
  });
  await isLocked;
  return async () => {
    release();
    await tx;
    await sql.end();
  };
}

/**
 * Locks the property row (FOR UPDATE) until released; resolves once the lock is held. Writing a
 * calendar day checks the foreign key to its property (FOR KEY SHARE) and waits for this lock, so
 * a test holds every apply of that property mid-job for as long as it needs.
 */
export const lockProperty = (url: string, propertyUid: string) => holdLock(url, (t) => t`select 1 from properties where uid = ${propertyUid} for update`);

/** Locks a webhook event's row (FOR UPDATE) until released: recording an attempt of it waits. */
export const lockWebhookEvent = (url: string, eventUid: string) => holdLock(url, (t) => t`select 1 from webhook_events where uid = ${eventUid} for update`);
