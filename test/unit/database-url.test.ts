import { describe, expect, it } from 'vitest';
import { hostsOf, isDatabaseUrl, singleHost, wantsPrimary, withoutTarget } from '../../shared/infra/db/database-url.js';
import { loadConfig } from '../../shared/infra/config.js';
import { pgConnectionOptions, postgresTarget } from '../../shared/infra/db/multi-host.js';

const HA = 'postgres://app:s%40cret@db1.internal:5433,db2.internal:5434/ops?target_session_attrs=read-write&sslmode=disable';

describe('a DATABASE_URL with several hosts (issue 38)', () => {
  it('lists every host in the URL order, with default port 5432', () => {
    expect(hostsOf(HA)).toEqual([{ host: 'db1.internal', port: 5433 }, { host: 'db2.internal', port: 5434 }]);
    expect(hostsOf('postgres://u@a,b:7/db')).toEqual([{ host: 'a', port: 5432 }, { host: 'b', port: 7 }]);
    expect(hostsOf('postgres://u@[::1]:6000/db')).toEqual([{ host: '::1', port: 6000 }]);
  });

  it('is valid configuration, and a bad port in any host is refused with the key named', () => {
    expect(isDatabaseUrl(HA)).toBe(true);
    expect(isDatabaseUrl('postgres://u@h1:5432,h2:x/db')).toBe(false);
    expect(isDatabaseUrl('postgres://u@h1:5432,:5433/db')).toBe(false);
    expect(loadConfig({ DATABASE_URL: HA }).db.url).toBe(HA);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h1:99999,h2/db' })).toThrow(/DATABASE_URL/);
  });

  it('asks for the writable server only with read-write or primary', () => {
    expect(wantsPrimary(HA)).toBe(true);
    expect(wantsPrimary('postgres://u@h1,h2/db?target_session_attrs=primary')).toBe(true);
    expect(wantsPrimary('postgres://u@h1,h2/db?target_session_attrs=any')).toBe(false);
    expect(wantsPrimary('postgres://u@h1,h2/db')).toBe(false);
  });

  it('gives each driver one host to parse (credentials and parameters kept) and a socket to the primary', () => {
    expect(withoutTarget(singleHost(HA, { host: 'db2.internal', port: 5434 }))).toBe('postgres://app:s%40cret@db2.internal:5434/ops?sslmode=disable');
    const pjs = postgresTarget(HA);
    expect(pjs.url).toBe('postgres://app:s%40cret@db1.internal:5433/ops?sslmode=disable');
    expect(typeof pjs.options.socket).toBe('function');
    const pg = pgConnectionOptions(HA);
    expect(pg.connectionString).toBe('postgres://app:s%40cret@db1.internal:5433/ops?sslmode=disable');
    expect(typeof pg.stream).toBe('function');
  });

  it('leaves a one-host URL exactly as it was', () => {
    const one = 'postgres://postgres@127.0.0.1:5432/test';
    expect(postgresTarget(one)).toEqual({ url: one, options: {} });
    expect(pgConnectionOptions(one)).toEqual({ connectionString: one });
  });
});
