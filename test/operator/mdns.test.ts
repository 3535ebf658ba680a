import { Bonjour, type Service } from 'bonjour-service';
import { describe, expect, it } from 'vitest';
import { advertisement, announce } from '../../server/operator/mdns.ts';

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

  // Multicast works on this machine's interfaces (checked when this was written); the
  // browser and the announcer are both on this machine, nothing is sent anywhere else.
  it('is seen by a bonjour-service browser on this machine', async () => {
    const name = `comanda-test-${process.pid}-${Date.now()}`;
    const ad = { ...advertisement({ ...input, port: 18080 + (process.pid % 1000) }), name };
    const errors: unknown[] = [];
    const announcer = announce(ad, (e) => errors.push(e));
    const browser = new Bonjour();
    try {
      const seen = await new Promise<Service>((resolve) => {
        browser.find({ type: 'comanda' }, (s) => {
          if (s.name === name) resolve(s);
        });
      });
      expect(seen.port).toBe(ad.port);
      expect(seen.host).toBe('trattoria.local');
      expect(seen.txt).toMatchObject({ slug: 'trattoria', node: 'node_01abc', pair: '/screens/pair' });
      expect(errors).toEqual([]);
    } finally {
      await new Promise<void>((r) => browser.destroy(() => r()));
      await announcer.stop();
    }
  });
});
