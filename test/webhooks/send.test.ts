import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRetryAfter, retryDelayMs, RETRY_DELAYS_MS } from '../../server/domain/webhooks/backoff.ts';
import { postWebhook } from '../../server/domain/webhooks/send.ts';
import { isPrivateAddress } from '../../server/domain/webhooks/url-policy.ts';
import { Receiver } from './helpers.ts';

describe('webhook sender', () => {
  let rcv: Receiver;
  beforeAll(async () => {
    rcv = await Receiver.start();
  });
  afterAll(() => rcv?.close());

  const port = () => new URL(rcv.url).port;
  const send = (url: string, allowPrivateTargets: boolean) =>
    postWebhook({ url, body: '{}', headers: {}, timeoutMs: 2000, allowPrivateTargets, signal: undefined });

  it('posts to loopback when private targets are allowed (the hub)', async () => {
    const r = await send(rcv.url, true);
    expect(r).toMatchObject({ status: 200, error: null });
    expect(rcv.received).toHaveLength(1);
  });

  it('never connects to a non-public address when they are not (the cloud), by IP or by name', async () => {
    const before = rcv.received.length;
    const byIp = await send(rcv.url, false);
    expect(byIp.status).toBeNull();
    expect(byIp.error).toMatch(/non-public/);
    const byName = await send(`http://localhost:${port()}/hook`, false);
    expect(byName.status).toBeNull();
    expect(byName.error).toMatch(/non-public/);
    expect(rcv.received.length).toBe(before);
  });

  it('classifies addresses', () => {
    for (const a of ['127.0.0.1', '10.0.0.1', '172.31.255.255', '192.168.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:10.0.0.1', '224.0.0.1']) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111']) expect(isPrivateAddress(a), a).toBe(false);
  });
});

describe('retry schedule', () => {
  it('follows the documented delays with at most 10 % jitter, then stops', () => {
    RETRY_DELAYS_MS.forEach((base, i) => {
      expect(retryDelayMs(i + 1, () => 0)).toBe(Math.round(base * 0.9));
      expect(retryDelayMs(i + 1, () => 1)).toBe(Math.round(base * 1.1));
      expect(retryDelayMs(i + 1, () => 0.5)).toBe(base);
    });
    expect(retryDelayMs(RETRY_DELAYS_MS.length + 1)).toBeNull();
    const total = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total / 86_400_000).toBeGreaterThan(3);
    expect(total / 86_400_000).toBeLessThan(3.5);
  });

  it('reads Retry-After as seconds or an HTTP date, capped at 24 h', () => {
    const now = Date.UTC(2026, 10, 2, 12, 0, 0);
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(new Date(now + 90_000).toUTCString(), now)).toBe(90_000);
    expect(parseRetryAfter('999999', now)).toBe(24 * 3600_000);
    expect(parseRetryAfter(new Date(now - 5_000).toUTCString(), now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});

describe('the cloud blocklist of webhook addresses', () => {
  it.each([
    // IPv4-compatible and IPv4-mapped, however written
    ['::127.0.0.1', true],
    ['::7f00:1', true],
    ['::ffff:7f00:1', true],
    ['::ffff:10.1.2.3', true],
    ['0:0:0:0:0:ffff:a9fe:a9fe', true],
    ['::ffff:0:a00:1', true],
    ['::ffff:8.8.8.8', false],
    // 6to4: the IPv4 address inside decides
    ['2002:7f00:1::1', true],
    ['2002:c0a8:101::', true],
    ['2002:a9fe:a9fe::1', true],
    ['2002:808:808::1', false],
    // Teredo, NAT64 (well-known and local-use), discard, benchmarking
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', true],
    ['64:ff9b::8.8.8.8', true],
    ['64:ff9b:1::a00:1', true],
    ['100::1', true],
    ['2001:2::1', true],
    // documentation ranges
    ['2001:db8::1', true],
    ['3fff:1::1', true],
    ['192.0.2.10', true],
    ['198.51.100.7', true],
    ['203.0.113.200', true],
    // public ones stay allowed
    ['2606:4700::1111', false],
    ['2a00:1450:4001::200e', false],
    ['1.1.1.1', false],
  ])('%s → blocked: %s', (address, blocked) => {
    expect(isPrivateAddress(address)).toBe(blocked);
  });
});
