import dgram from 'node:dgram';
import type { Service } from 'bonjour-service';
import { describe, expect, it } from 'vitest';
import { advertisement, announce, bonjourAdvertiser } from '../../server/operator/mdns.ts';

describe('mDNS announcement', () => {
  const input = { port: 8080, slug: 'trattoria', restaurantName: 'Trattoria', nodeId: 'node_01abc', version: '0.1.0', publicUrl: 'http://192.168.1.20:8080' };

  it('announces _comanda._tcp as <slug>.local with where to pair a screen', () => {
    expect(advertisement(input)).toEqual({
      name: 'comanda Trattoria',
      type: 'comanda',
      protocol: 'tcp',
      port: 8080,
      host: 'trattoria.local',
      txt: { path: '/', slug: 'trattoria', node: 'node_01abc', version: '0.1.0', url: 'http://192.168.1.20:8080', pair: '/screens/pair' },
    });
    expect(advertisement({ ...input, slug: null, restaurantName: null }).host).toBe('comanda-hub.local');
  });

  const loopbackPort = () =>
    new Promise<number>((resolve) => {
      const probe = dgram.createSocket('udp4');
      probe.bind(0, '127.0.0.1', () => {
        const { port } = probe.address();
        probe.close(() => resolve(port));
      });
    });

  it('is also an HTTP service under the same name, and the advertiser says when the name is out (loopback only)', async () => {
    const udpPort = await loopbackPort();
    const transport = { multicast: false, ip: '127.0.0.1', port: udpPort, interface: '127.0.0.1', bind: '127.0.0.1' };
    const advertiser = bonjourAdvertiser(() => {}, transport);
    const ad = advertisement({ ...input, port: 18081 });
    expect(await advertiser.start(ad)).toBe(true);
    const browser = announce({ ...ad, name: 'comanda browser', host: 'browser.local' }, () => {}, transport);
    try {
      const web = await new Promise<Service>((resolve) => {
        browser.bonjour.find({ type: 'http' }, (s) => s.host === 'trattoria.local' && resolve(s));
      });
      // a browser or a phone listing web servers on the LAN finds the back office by the hub's name
      expect(web).toMatchObject({ name: 'comanda Trattoria', port: 18081, host: 'trattoria.local', txt: { path: '/app/' } });
    } finally {
      await browser.stop();
      await advertiser.stop();
    }
  });

  it('the advertiser gives up (codes then carry the IP) when nothing is announced in time', async () => {
    // probing alone takes three rounds of 250 ms: not announced within 1 ms, as on a LAN that drops it
    const udpPort = await loopbackPort();
    const advertiser = bonjourAdvertiser(() => {}, { multicast: false, ip: '127.0.0.1', port: udpPort, interface: '127.0.0.1', bind: '127.0.0.1' }, 1);
    try {
      expect(await advertiser.start(advertisement({ ...input, port: 18082 }))).toBe(false);
    } finally {
      await advertiser.stop();
    }
  });

  // Multicast does not reach loopback on this machine (lo has no MULTICAST flag), and the
  // tests send nothing beyond it: the real responder and a real bonjour-service browser talk
  // DNS-SD over a loopback unicast socket instead of 224.0.0.251. What is checked is what
  // goes on the wire (PTR, SRV, TXT and address records) as a browser decodes it.
  it('is seen by a bonjour-service browser, over loopback only', async () => {
    const udpPort = await new Promise<number>((resolve) => {
      const probe = dgram.createSocket('udp4');
      probe.bind(0, '127.0.0.1', () => {
        const { port } = probe.address();
        probe.close(() => resolve(port));
      });
    });
    const ad = advertisement({ ...input, port: 18080 });
    const errors: unknown[] = [];
    const announcer = announce(ad, (e) => errors.push(e), { multicast: false, ip: '127.0.0.1', port: udpPort, interface: '127.0.0.1', bind: '127.0.0.1' });
    try {
      const seen = await new Promise<Service>((resolve) => {
        announcer.bonjour.find({ type: 'comanda' }, (s) => resolve(s));
      });
      expect(seen.name).toBe('comanda Trattoria');
      expect(seen.fqdn).toBe('comanda Trattoria._comanda._tcp.local');
      expect(seen.port).toBe(18080);
      expect(seen.host).toBe('trattoria.local');
      expect(seen.txt).toEqual(ad.txt);
      // the A/AAAA records: this machine's own addresses
      expect(seen.addresses!.length).toBeGreaterThan(0);
      expect(errors).toEqual([]);
    } finally {
      await announcer.stop();
    }
  });
});
