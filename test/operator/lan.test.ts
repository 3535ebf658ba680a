import { describe, expect, it } from 'vitest';
import { defaultPublicUrl, lanAddresses, reachableUrls } from '../../server/operator/lan.ts';

const v4 = (address: string, internal = false) => ({ address, family: 'IPv4' as const, internal, netmask: '255.255.255.0', mac: '00:00:00:00:00:00', cidr: `${address}/24` });
const v6 = (address: string, internal = false) => ({ address, family: 'IPv6' as const, internal, netmask: 'ffff:ffff:ffff:ffff::', mac: '00:00:00:00:00:00', cidr: `${address}/64`, scopeid: 0 });

describe('LAN addresses', () => {
  const venuePc = {
    lo: [v4('127.0.0.1', true), v6('::1', true)],
    docker0: [v4('172.17.0.1')],
    eth0: [v4('169.254.10.2'), v6('fe80::1'), v4('192.168.1.20'), v6('fd00::20')],
    wlan0: [v4('10.0.0.7')],
  };

  it('offers the venue addresses first: IPv4 private LAN, physical before virtual; never loopback, link-local or 0.0.0.0', () => {
    expect(lanAddresses(venuePc).map((a) => `${a.interface} ${a.address}`)).toEqual(['eth0 192.168.1.20', 'wlan0 10.0.0.7', 'docker0 172.17.0.1', 'eth0 fd00::20']);
  });

  it('publicUrl defaults to the first LAN address, or loopback on a machine with no network', () => {
    expect(defaultPublicUrl(8080, venuePc)).toBe('http://192.168.1.20:8080');
    expect(defaultPublicUrl(8080, { lo: [v4('127.0.0.1', true)] })).toBe('http://127.0.0.1:8080');
    expect(defaultPublicUrl(8080, { eth0: [v6('fd00::20')] })).toBe('http://[fd00::20]:8080');
  });

  it('a server on every interface is reachable at each LAN address, not at 0.0.0.0; a specific host is itself', () => {
    expect(reachableUrls('0.0.0.0', 8080, venuePc)).toEqual(['http://192.168.1.20:8080', 'http://10.0.0.7:8080', 'http://172.17.0.1:8080', 'http://127.0.0.1:8080']);
    expect(reachableUrls('::', 8080, venuePc)).toContain('http://[fd00::20]:8080');
    expect(reachableUrls('0.0.0.0', 8080, venuePc).join()).not.toContain('0.0.0.0');
    expect(reachableUrls('127.0.0.1', 9000, venuePc)).toEqual(['http://127.0.0.1:9000']);
  });
});
