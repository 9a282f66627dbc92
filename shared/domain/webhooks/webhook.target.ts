import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/*
 * Server-side request forgery guard: a webhook URL is given by an operator but resolved by us, and
 * must not reach loopback, private or link-local addresses (cloud metadata at 169.254.169.254, the
 * service's own Postgres and Redis) unless WEBHOOK_ALLOW_PRIVATE_TARGETS=true. The check runs in the
 * socket's own `lookup`, so the address checked is the address connected to (no DNS rebinding
 * between a check and the connect), and every address the name resolves to must pass.
 */
const refused = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  refused.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['64:ff9b::', 96], // NAT64 can wrap a private v4 address
] as const) {
  refused.addSubnet(net, prefix, 'ipv6');
}

export class RefusedTargetError extends Error {}

export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  // An IPv4-mapped IPv6 address (::ffff:10.0.0.1) is judged as the IPv4 address it carries.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return refused.check(mapped[1], 'ipv4');
  return refused.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** Resolves every address of `host` and refuses the lot if any one of them is refused. */
export async function resolveAllowed(host: string): Promise<{ address: string; family: number }[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  const addresses = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await lookup(bare, { all: true, verbatim: true });
  const bad = addresses.find((a) => isRefusedAddress(a.address));
  if (bad) throw new RefusedTargetError(`target ${host} resolves to ${bad.address}: loopback, private and link-local addresses are refused`);
  if (addresses.length === 0) throw new RefusedTargetError(`target ${host} does not resolve`);
  return addresses;
}

/** A `lookup` for http.request that connects only to checked addresses. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  resolveAllowed(hostname).then(
    (addresses) => {
      const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
      const list = wanted.length > 0 ? wanted : addresses;
      if (options.all) callback(null, list);
      else callback(null, list[0]!.address, list[0]!.family);
    },
    (err: Error) => callback(Object.assign(err, { code: 'EREFUSEDTARGET' }), '', 0),
  );
};
