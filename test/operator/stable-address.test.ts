import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Advertisement, Advertiser } from '../../server/operator/mdns.ts';
import { operatorOf } from '../../server/operator/services.ts';
import { ADDRESS_FILE, StableAddress } from '../../server/operator/stable-address.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

// QR codes, pairing links and the Share page carry a name that survives the router handing
// the PC another address. The PC's interfaces and the mDNS announcement are injected: the
// router's moves are a changed interface list, a LAN without multicast an advertiser that
// never comes up. Nothing leaves loopback.
type Interfaces = ReturnType<typeof os.networkInterfaces>;
const wifi = (address: string): Interfaces => ({
  lo: [{ address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: true, cidr: '127.0.0.1/8' }],
  wlan0: [{ address, netmask: '255.255.255.0', family: 'IPv4', mac: 'aa:bb:cc:dd:ee:ff', internal: false, cidr: `${address}/24` }],
});

class FakeAdvertiser implements Advertiser {
  announced: Advertisement[] = [];
  constructor(public lanCarriesIt: boolean) {}
  async start(ad: Advertisement) {
    this.announced.push(ad);
    return this.lanCarriesIt;
  }
  async stop() {}
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-addr-'));
  dirs.push(d);
  return d;
};

describe.each(DIALECTS)('stable addresses on %s', (dialect) => {
  const hubs: TestHub[] = [];
  afterEach(async () => {
    for (const h of hubs.splice(0)) await h.close();
  });

  /** A hub as `comanda serve` wires it: codes made with what StableAddress says. */
  async function hubOn(o: { dataDir: string; interfaces: () => Interfaces; advertiser: FakeAdvertiser | null; configuredPublicUrl?: string; hub?: TestHub }) {
    const hub = o.hub ?? (await startHub(dialect, { config: { publicUrl: 'http://192.168.1.20:8080' } }));
    if (!o.hub) hubs.push(hub);
    const ad: Advertisement = { name: 'comanda Test Bistro', type: 'comanda', protocol: 'tcp', port: 8080, host: 'test-bistro.local', txt: {} };
    const addresses = new StableAddress({
      port: 8080,
      configuredPublicUrl: o.configuredPublicUrl ?? null,
      interfaces: o.interfaces,
      advertiser: o.advertiser,
      advertisement: o.advertiser ? ad : null,
      dataDir: o.dataDir,
      now: () => hub.clock.now(),
      onPublicUrl: (url) => (hub.server.services.config.publicUrl = url),
    });
    hub.server.services.config.publicUrl = addresses.publicUrl;
    operatorOf(hub.server.services).addresses = addresses;
    await addresses.start();
    return { hub, addresses };
  }

  async function tableCodes(hub: TestHub) {
    for (const n of [1, 2]) {
      const table = (await hub.api.post('/v1/tables', { number: n, capacity: 4 })).body.id;
      expect((await hub.api.post('/v1/qr_codes', { table })).status).toBe(201);
    }
    expect((await hub.api.post('/v1/qr_codes', { type: 'takeout', label: 'Counter' })).status).toBe(201);
  }

  it('where the LAN carries the announcement, codes and links carry <slug>.local, and a move of the address asks for no reprint', async () => {
    let lan = wifi('192.168.1.20');
    const advertiser = new FakeAdvertiser(true);
    const dataDir = tmp();
    const { hub, addresses } = await hubOn({ dataDir, interfaces: () => lan, advertiser });
    await tableCodes(hub);
    // announced as an HTTP service too (mdns.ts) under the same name
    expect(advertiser.announced.map((a) => a.host)).toEqual(['test-bistro.local']);
    const codes = (await hub.api.get('/v1/qr_codes')).body.data;
    expect(codes.map((c: { url: string }) => new URL(c.url).origin)).toEqual(['http://test-bistro.local:8080', 'http://test-bistro.local:8080', 'http://test-bistro.local:8080']);
    const pairing = await hub.api.post('/v1/devices/pairing_codes', { name: 'Grill' });
    expect(pairing.body.url).toMatch(/^http:\/\/test-bistro\.local:8080\/screens\/pair\?code=/);
    const health = (await hub.api.get('/v1/system/health')).body;
    // the Share page lists the name first and the IP as the fallback
    expect(health.addresses).toEqual({ stable_url: 'http://test-bistro.local:8080', lan_address: '192.168.1.20', change: null });
    expect(health.pair_url).toBe('http://test-bistro.local:8080/screens/pair');

    // the router hands the PC another address: the name is announced again with it; nothing to reprint
    lan = wifi('192.168.1.57');
    expect(addresses.check()).toBeNull();
    expect(advertiser.announced).toHaveLength(2);
    expect((await hub.api.get('/v1/system/health')).body.addresses).toEqual({ stable_url: 'http://test-bistro.local:8080', lan_address: '192.168.1.57', change: null });
    expect(new URL((await hub.api.get('/v1/qr_codes')).body.data[0].url).host).toBe('test-bistro.local:8080');
  });

  it('where it does not, codes carry the IP; when the address moves, Today is told which codes to reprint, and new codes follow the new address', async () => {
    let lan = wifi('192.168.1.20');
    const dataDir = tmp();
    const { hub, addresses } = await hubOn({ dataDir, interfaces: () => lan, advertiser: new FakeAdvertiser(false) });
    await tableCodes(hub);
    expect(new URL((await hub.api.get('/v1/qr_codes')).body.data[0].url).origin).toBe('http://192.168.1.20:8080');
    expect((await hub.api.get('/v1/system/health')).body.addresses.stable_url).toBeNull();

    lan = wifi('10.0.0.14');
    const change = addresses.check();
    expect(change).toMatchObject({ from: '192.168.1.20', to: '10.0.0.14', codes_embed_ip: true });
    const health = (await hub.api.get('/v1/system/health')).body;
    expect(health.addresses.change).toMatchObject({ from: '192.168.1.20', to: '10.0.0.14', reprint: [{ label: 'Table 1' }, { label: 'Table 2' }, { label: 'Counter' }] });
    // codes printed from now on carry the new address
    expect(health.public_url).toBe('http://10.0.0.14:8080');
    expect(new URL((await hub.api.get('/v1/qr_codes')).body.data[0].url).origin).toBe('http://10.0.0.14:8080');
    // a code made after the move is printed with the new address: not one to reprint
    hub.clock.advance(60_000);
    const table3 = (await hub.api.post('/v1/tables', { number: 3, capacity: 2 })).body.id;
    await hub.api.post('/v1/qr_codes', { table: table3 });
    expect((await hub.api.get('/v1/system/health')).body.addresses.change.reprint.map((c: { label: string }) => c.label)).toEqual(['Table 1', 'Table 2', 'Counter']);

    // the owner reprinted them (Today's button): the move is no longer reported, and stays so after a restart
    const acked = await hub.api.post('/v1/system/address-change/acknowledge', {});
    expect(acked.status).toBe(200);
    expect(acked.body.addresses.change).toBeNull();
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, ADDRESS_FILE), 'utf8'))).toMatchObject({ address: '10.0.0.14', public_url: 'http://10.0.0.14:8080' });
    const again = await hubOn({ dataDir, interfaces: () => lan, advertiser: new FakeAdvertiser(false), hub });
    expect(again.addresses.change).toBeNull();
  });

  it('a move while the hub was off (the PC rebooted into another lease) is noticed at the next start', async () => {
    const dataDir = tmp();
    const first = await hubOn({ dataDir, interfaces: () => wifi('192.168.1.20'), advertiser: null });
    await tableCodes(first.hub);
    await first.addresses.stop();
    const next = await hubOn({ dataDir, interfaces: () => wifi('192.168.1.33'), advertiser: null, hub: first.hub });
    expect(next.addresses.change).toMatchObject({ from: '192.168.1.20', to: '192.168.1.33' });
    expect((await first.hub.api.get('/v1/system/health')).body.addresses.change.reprint).toHaveLength(3);
  });

  it('codes printed with the IP before the name was announced are still named after a move; so are codes whose name is no longer announced', async () => {
    const dataDir = tmp();
    let lan = wifi('192.168.1.20');
    const first = await hubOn({ dataDir, interfaces: () => lan, advertiser: new FakeAdvertiser(false) });
    await tableCodes(first.hub);
    // the next start, the LAN carries the name: new codes carry it, the printed ones the IP (still ours)
    const named = await hubOn({ dataDir, interfaces: () => lan, advertiser: new FakeAdvertiser(true), hub: first.hub });
    expect(named.addresses.change).toBeNull();
    expect(named.addresses.publicUrl).toBe('http://test-bistro.local:8080');
    lan = wifi('192.168.1.44');
    expect(named.addresses.check()).toMatchObject({ from: '192.168.1.20', to: '192.168.1.44', codes_embed_ip: true });
    named.addresses.acknowledge();
    // now every code carries the name; a start where it is not announced (multicast blocked) breaks them
    const unnamed = await hubOn({ dataDir, interfaces: () => lan, advertiser: new FakeAdvertiser(false), hub: first.hub });
    expect(unnamed.addresses.change).toMatchObject({ from: 'test-bistro.local', to: '192.168.1.44', codes_embed_ip: false });
  });

  it("the operator's own publicUrl is never replaced; a move is reported only when it embeds the old IP", async () => {
    const dataDir = tmp();
    let lan = wifi('192.168.1.20');
    const named = await hubOn({ dataDir, interfaces: () => lan, advertiser: new FakeAdvertiser(true), configuredPublicUrl: 'http://menu.trattoria.example' });
    expect(named.hub.server.services.config.publicUrl).toBe('http://menu.trattoria.example');
    lan = wifi('192.168.1.90');
    expect(named.addresses.check()).toBeNull();
    expect(named.hub.server.services.config.publicUrl).toBe('http://menu.trattoria.example');
  });

  it('a server that does not follow its address refuses the acknowledgement with a clear 409', async () => {
    const hub = await startHub(dialect);
    hubs.push(hub);
    const r = await hub.api.post('/v1/system/address-change/acknowledge', {});
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('state_conflict');
  });
});
