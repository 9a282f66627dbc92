import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../shared/infra/config.js';

describe('TRUST_PROXY', () => {
  const read = (v?: string) => loadConfig(v === undefined ? {} : { TRUST_PROXY: v }).http.trustProxy;

  it('trusts no proxy unless told', () => {
    for (const v of [undefined, '', 'false', ' ']) expect(read(v), String(v)).toBe(false);
  });

  it('takes a hop count, names, addresses and CIDR ranges', () => {
    expect(read('2')).toBe(2);
    expect(read('loopback')).toEqual(['loopback']);
    expect(read('loopback, 10.0.0.0/8,192.168.1.7, fd00::/8, ::1, linklocal, uniquelocal')).toEqual([
      'loopback', '10.0.0.0/8', '192.168.1.7', 'fd00::/8', '::1', 'linklocal', 'uniquelocal',
    ]);
    expect(read('0.0.0.0/0')).toEqual(['0.0.0.0/0']);
    expect(read('::/128')).toEqual(['::/128']);
  });

  it('refuses true, 0, and anything that is not an address, a range or a name, naming the entry', () => {
    for (const [v, bad] of [
      ['true', 'true'], ['0', '0'], ['-1', '-1'], ['loopback,proxy.internal', 'proxy.internal'], ['10.0.0.0/33', '10.0.0.0/33'],
      ['fd00::/129', 'fd00::/129'], ['10.0.0.1/8/1', '10.0.0.1/8/1'], ['10.0.0.0/', '10.0.0.0/'], ['10.0.0.0/x', '10.0.0.0/x'], ['300.1.1.1', '300.1.1.1'],
    ] as const) {
      expect(() => read(v), v).toThrow(ConfigError);
      expect(() => read(v), v).toThrow(`TRUST_PROXY: "${bad}" is not a hop count`);
    }
  });
});
