/**
 * The Host/Origin rules in isolation (the same rules are exercised over real HTTP, with forged
 * headers, in api.test.ts): which header values name the server and which are refused.
 */
import { describe, expect, it } from 'vitest';
import { allowedHostNames, hostMatches, hostName, refuseReason } from './host-guard.js';

describe('explorer host guard', () => {
  const loop = allowedHostNames('127.0.0.1');

  it('allows the loopback names with the bound port only', () => {
    for (const h of ['127.0.0.1:5173', 'localhost:5173', 'LocalHost:5173', '[::1]:5173']) expect(hostMatches(h, loop, 5173), h).toBe(true);
    for (const h of [
      '127.0.0.1:5174',
      'localhost',
      '127.0.0.1',
      'evil.example:5173',
      'localhost.evil.example:5173',
      '127.0.0.1.nip.io:5173',
      'localhost:5173:5173',
      'user@localhost:5173',
      '[::1]',
      '::1:5173',
      '',
      ' ',
    ])
      expect(hostMatches(h, loop, 5173), JSON.stringify(h)).toBe(false);
  });

  it('a host without a port means port 80, as browsers send it', () => {
    expect(hostMatches('localhost', loop, 80)).toBe(true);
    expect(hostMatches('localhost:80', loop, 80)).toBe(true);
    expect(hostMatches('evil.example', loop, 80)).toBe(false);
  });

  it('adds the --host address (IPv6 in brackets, names lower-cased) to the loopback names', () => {
    expect(hostName('::1')).toBe('[::1]');
    expect(hostName('FE80::1')).toBe('[fe80::1]');
    expect(hostName('Explorer.LAN')).toBe('explorer.lan');
    const lan = allowedHostNames('192.168.1.20');
    expect(hostMatches('192.168.1.20:8080', lan, 8080)).toBe(true);
    expect(hostMatches('localhost:8080', lan, 8080)).toBe(true);
    expect(hostMatches('192.168.1.21:8080', lan, 8080)).toBe(false);
    expect(hostMatches('[fe80::1]:8080', allowedHostNames('fe80::1'), 8080)).toBe(true);
  });

  it('refuses a missing Host, a foreign Host, and an Origin that is not a bound http origin', () => {
    const ok = { host: '127.0.0.1:9000' };
    expect(refuseReason(ok, loop, 9000)).toBeUndefined();
    expect(refuseReason({ ...ok, origin: 'http://localhost:9000' }, loop, 9000)).toBeUndefined();
    expect(refuseReason({}, loop, 9000)).toMatch(/without a Host/);
    expect(refuseReason({ host: 'evil.example:9000' }, loop, 9000)).toMatch(/Host not allowed/);
    for (const origin of [
      'null',
      'http://evil.example:9000',
      'https://127.0.0.1:9000',
      'http://127.0.0.1:9001',
      'http://127.0.0.1:9000/',
      'file://',
      'http://127.0.0.1:9000.evil.example',
    ])
      expect(refuseReason({ ...ok, origin }, loop, 9000), origin).toMatch(/cross-origin/);
  });
});
