import { createHash, randomBytes } from 'node:crypto';

/** Opaque uid: a prefix and 20 random base32-ish characters, safe in URLs and comma lists. */
export function newUid(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
