import postgres from 'postgres';

/**
 * Locks the property row (FOR UPDATE) until released; resolves once the lock is held. Writing a
 * calendar day checks the foreign key to its property (FOR KEY SHARE) and waits for this lock, so
 * a test holds every apply of that property mid-job for as long as it needs.
 */
export async function lockProperty(url: string, propertyUid: string): Promise<() => Promise<void>> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => (locked = r));
  const tx = sql.begin(async (t) => {
    await t`select 1 from properties where uid = ${propertyUid} for update`;
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
