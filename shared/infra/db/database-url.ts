/*
 * DATABASE_URL with one host or several (`postgres://u@h1:5432,h2:5432/db?target_session_attrs=
 * read-write`, as libpq takes it): reading it, without a driver (config.ts validates with it).
 * multi-host.ts says how each driver is given it.
 */

export interface HostPort {
  host: string;
  port: number;
}

/** The hosts of a URL, in its order (one for an ordinary URL). */
export function hostsOf(url: string): HostPort[] {
  const authority = url.slice(url.indexOf('://') + 3).split(/[/?]/)[0] ?? '';
  const hostList = decodeURIComponent(authority.slice(authority.lastIndexOf('@') + 1));
  const list = hostList.split(',');
  return list.map((hp) => {
    const m = /^(\[[^\]]+\]|[^:]*)(?::(\d+))?$/.exec(hp);
    if (!m) return { host: '', port: Number.NaN };
    // An empty host is localhost in a one-host URL (as libpq reads it), a mistake in a list.
    return { host: (m[1] ?? '').replace(/^\[|\]$/g, '') || (list.length === 1 ? 'localhost' : ''), port: Number(m[2] ?? 5432) };
  });
}

function targetOf(url: string): string | null {
  const q = url.indexOf('?');
  return q < 0 ? null : new URLSearchParams(url.slice(q + 1)).get('target_session_attrs');
}

/** True when the URL asks for the writable server of several (read-write or primary). */
export function wantsPrimary(url: string): boolean {
  const t = targetOf(url);
  return t === 'read-write' || t === 'primary';
}

/** The URL without its target_session_attrs: a probe looks at any server. */
export function withoutTarget(url: string): string {
  return url.replace(/([?&])target_session_attrs=[^&]*&?/, '$1').replace(/[?&]$/, '');
}

/** True for a postgres:// URL, one host or several (`h1:p1,h2:p2`), each with a valid port. */
export function isDatabaseUrl(url: string): boolean {
  if (!/^postgres(ql)?:\/\//.test(url)) return URL.canParse(url);
  const hosts = hostsOf(url);
  return hosts.every((h) => h.host !== '' && Number.isInteger(h.port) && h.port > 0 && h.port < 65536) && URL.canParse(singleHost(url, hosts[0]!));
}

/** The URL with its host list replaced by one host. */
export function singleHost(url: string, hp: HostPort): string {
  const start = url.indexOf('://') + 3;
  const authority = url.slice(start).split(/[/?]/)[0] ?? '';
  const userinfo = authority.includes('@') ? authority.slice(0, authority.lastIndexOf('@') + 1) : '';
  return `${url.slice(0, start)}${userinfo}${hp.host.includes(':') ? `[${hp.host}]` : hp.host}:${hp.port}${url.slice(start + authority.length)}`;
}
