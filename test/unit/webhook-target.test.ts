import { describe, expect, it } from 'vitest';
import { isRefusedAddress, resolveAllowed, signatureHeader, verifySignature } from '../../shared/platform/outbound-http/index.js';

describe('webhook target guard', () => {
  it('refuses loopback, private, link-local and unspecified addresses, v4 and v6', () => {
    for (const a of ['127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd12:3456::1', '::ffff:10.0.0.1', '::ffff:127.0.0.1']) {
      expect(isRefusedAddress(a), a).toBe(true);
    }
  });

  it('lets public addresses through, including ones next to the private ranges', () => {
    for (const a of ['8.8.8.8', '172.15.255.255', '172.32.0.1', '192.169.0.1', '11.0.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isRefusedAddress(a), a).toBe(false);
    }
  });

  // Issue 24 item 4: the probe's spellings that passed the hand-written list, each refused now.
  it('refuses every special-purpose range, and IPv6 forms that carry a refused IPv4 address', () => {
    const probe = [
      '192.0.2.2', '198.51.100.7', '203.0.113.9', // documentation (TEST-NET-1..3)
      '2001:db8::1', 'fec0::1', // documentation, deprecated site-local
      '::7f00:1', '::127.0.0.1', '::a00:1', // IPv4-compatible: loopback, 10.0.0.1
      '2002:7f00:1::', '2002:a9fe:a9fe::1', // 6to4 around 127.0.0.1 and 169.254.169.254
      '64:ff9b:1::a00:1', '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe', // NAT64 local-use and well-known around private ones
      '2001::1', // Teredo
      '192.88.99.1', '198.18.0.1', '240.0.0.1', '255.255.255.255', '224.0.0.1', '100::1', '2001:10::1', 'ff02::1',
      'not-an-address', '',
    ];
    expect(probe.filter((a) => !isRefusedAddress(a))).toEqual([]);
  });

  it('lets IPv6 forms through when the IPv4 address they carry is public', () => {
    for (const a of ['2002:808:808::1', '64:ff9b::808:808', '::ffff:1.1.1.1']) expect(isRefusedAddress(a), a).toBe(false);
  });

  it('refuses a host name when any address it resolves to is private', async () => {
    await expect(resolveAllowed('localhost')).rejects.toThrow(/refused/);
    await expect(resolveAllowed('[::1]')).rejects.toThrow(/refused/);
  });
});

describe('webhook signature', () => {
  it('verifies its own header and refuses another body, secret or an old timestamp', () => {
    const now = Date.now();
    const t = Math.floor(now / 1000);
    const header = signatureHeader('whsec_a', '{"x":1}', t);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature('whsec_a', header, '{"x":1}', 300, now)).toBe(true);
    expect(verifySignature('whsec_a', header, '{"x":2}', 300, now)).toBe(false);
    expect(verifySignature('whsec_b', header, '{"x":1}', 300, now)).toBe(false);
    expect(verifySignature('whsec_a', header, '{"x":1}', 300, now + 301_000)).toBe(false);
  });
});
