import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/*
 * Password hashing: argon2id through @node-rs/argon2 (Rust, prebuilt binaries in the npm package,
 * no compiler needed). OWASP's minimum for argon2id: 19 MiB, 2 passes, 1 lane; verification takes
 * the parameters from the stored PHC string, so raising them later keeps old hashes working.
 */
const OPTIONS = { algorithm: 2 /* Algorithm.Argon2id (a const enum) */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/**
 * A hash of nothing anyone knows, verified against when the email has no user (or a disabled one):
 * an unknown email costs the same argon2 work as a known one, so the answer's timing does not tell
 * which emails exist.
 */
let dummy: Promise<string> | undefined;
const dummyHash = () => (dummy ??= hashPassword(randomBytes(32).toString('base64url')));

/** True when the password matches; with no hash (no such user) the same work is done and false answered. */
export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  const against = storedHash ?? (await dummyHash());
  passwordWork.verifications++;
  try {
    const ok = await verify(against, password);
    return ok && storedHash !== undefined;
  } catch {
    // A malformed stored hash: no sign-in, never a crash.
    return false;
  }
}

/** A generated password for `user create` / `user reset-password`: 24 characters of base64url. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

/** Sign-in work counter for tests (no timed assertions): how many argon2 verifications ran. */
export const passwordWork = { verifications: 0 };
