import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * TRUST_PROXY: which proxies in front of the API may name the client in X-Forwarded-For (Express's
 * `trust proxy`). Unset or `false`: none, the client is the socket's peer. A number: that many hops.
 * Otherwise a comma list of `loopback`, `linklocal`, `uniquelocal`, addresses and CIDR ranges.
 * `true` (trust every hop) is refused: any client could then name itself anything.
 */
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
function isProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}
export const trustProxy = z
  .string()
  .trim()
  .optional()
  .transform((v, ctx): false | number | string[] => {
    if (v === undefined || v === '' || v === 'false') return false;
    if (/^\d+$/.test(v) && Number(v) >= 1) return Number(v);
    const entries = v.split(',').map((e) => e.trim());
    const bad = entries.find((e) => !isProxyEntry(e));
    if (bad === undefined) return entries;
    ctx.addIssue({
      code: 'custom',
      message: `"${bad}" is not a hop count, loopback, linklocal, uniquelocal, an address or a CIDR range (true is refused: it trusts any client)`,
    });
    return z.NEVER;
  });
