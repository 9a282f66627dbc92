import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/*
 * Server-side request forgery guard: a webhook URL is given by an operator but resolved by us, and
 * must reach only global unicast addresses: never loopback, private, link-local or any other
 * special-purpose address (cloud metadata at 169.254.169.254, the
 * service's own Postgres and Redis) unless WEBHOOK_ALLOW_PRIVATE_TARGETS=true. The check runs in the
 * socket's own `lookup`, so the address checked is the address connected to (no DNS rebinding
 * between a check and the connect), and every address the name resolves to must pass.
 */
export class RefusedTargetError extends Error {
  /** The address judged (for the server's log only): never in the message, which reaches the app. */
  constructor(
    message: string,
    readonly address?: string,
  ) {
    super(message);
  }
}

/**
 * The IPv4 address an IPv6 address carries, for the forms that embed one: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), 6to4 (2002:AABB:CCDD::/48) and the NAT64
 * well-known prefix (64:ff9b::a.b.c.d). Judging the carried address closes the detours through
 * them (issue 24: ::7f00:1 and 2002:7f00:1:: reached loopback).
 */
function embeddedIPv4(a: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const b = a.toByteArray();
  const v4 = (at: number) => new ipaddr.IPv4(b.slice(at, at + 4));
  if (a.isIPv4MappedAddress()) return a.toIPv4Address();
  if (b.slice(0, 12).every((x) => x === 0)) return v4(12);
  if (a.range() === '6to4') return v4(2);
  if (a.match(NAT64_WELL_KNOWN)) return v4(12);
  return undefined;
}
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/**
 * Whether an address may be a webhook target: only global unicast, judged by ipaddr.js's table of
 * the IANA special-purpose registries (private, loopback, link-local, carrier-grade NAT, the
 * documentation ranges 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24 and 2001:db8::/32,
 * benchmarking, multicast, reserved, deprecated site-local fec0::/10, ORCHID, discard...). An IPv6
 * address carrying an IPv4 one is judged as that IPv4 address; Teredo and the local-use NAT64
 * prefix 64:ff9b:1::/48 (whose embedded address cannot be read back for sure) are refused.
 */
export function isRefusedAddress(address: string): boolean {
  if (!ipaddr.isValid(address) || isIP(address) === 0) return true;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    const carried = embeddedIPv4(v6);
    if (carried) return carried.range() !== 'unicast';
    if (v6.range() === 'teredo' || v6.range() === 'rfc6052') return true;
    return v6.range() !== 'unicast';
  }
  return parsed.range() !== 'unicast';
}

/** Resolves every address of `host` and refuses the lot if any one of them is refused. */
export async function resolveAllowed(host: string): Promise<{ address: string; family: number }[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  const addresses = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await lookup(bare, { all: true, verbatim: true });
  const bad = addresses.find((a) => isRefusedAddress(a.address));
  // The message names no address (issue 39 L3: an app learned what our resolver maps a name to).
  if (bad) throw new RefusedTargetError(`target ${host} is refused: loopback, private and link-local addresses are not allowed`, bad.address);
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
