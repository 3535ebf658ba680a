import { Bonjour, type Service } from 'bonjour-service';

export const MDNS_TYPE = 'comanda';

export interface Advertisement {
  /** instance name shown by browsers, e.g. "comanda Trattoria" */
  name: string;
  type: typeof MDNS_TYPE;
  protocol: 'tcp';
  port: number;
  /** `<slug>.local`: tablets and the sync tooling can open http://trattoria.local:8080 */
  host: string;
  txt: Record<string, string>;
}

export interface AdvertiseInput {
  port: number;
  slug: string | null;
  restaurantName: string | null;
  /** the node's identity (node_state.origin): tells two hubs of one venue apart */
  nodeId: string;
  version: string;
  publicUrl: string;
}

/** What the hub announces as `_comanda._tcp`: pure, so it is tested without a network. */
export function advertisement(input: AdvertiseInput): Advertisement {
  const slug = input.slug ?? 'comanda-hub';
  return {
    name: `comanda ${input.restaurantName ?? slug}`.slice(0, 63),
    type: MDNS_TYPE,
    protocol: 'tcp',
    port: input.port,
    host: `${slug}.local`,
    txt: { path: '/', slug, node: input.nodeId, version: input.version, url: input.publicUrl, pair: '/screens/pair' },
  };
}

/**
 * Announces the hub's name on the LAN. start() resolves true once the name is announced (the
 * network carries multicast and nobody else holds the name), false when it cannot be: codes
 * then carry the IP address. serve.ts uses bonjourAdvertiser(); tests pass their own.
 */
export interface Advertiser {
  start(ad: Advertisement): Promise<boolean>;
  stop(): Promise<void>;
}

export interface Announcer {
  readonly service: Service;
  /** the responder's own instance (a browser on it sees what it announces) */
  readonly bonjour: Bonjour;
  stop(): Promise<void>;
}

/**
 * Where the announcements go. Default: multicast on every interface (224.0.0.251:5353), as
 * mDNS is. Tests pass a loopback unicast transport ({multicast: false, ip: '127.0.0.1', …}),
 * so nothing leaves the machine.
 */
export type MdnsTransport = Record<string, unknown>;

/**
 * Announces the hub on the LAN until stop(). A machine whose network refuses multicast
 * gets an error event, which is logged and otherwise ignored: finding the hub by mDNS is
 * a convenience; the printed LAN address and QR always work.
 */
export function announce(ad: Advertisement, onError: (err: unknown) => void = () => {}, transport: MdnsTransport = {}): Announcer {
  const bonjour = new Bonjour(transport as any, onError);
  const service = bonjour.publish({ ...ad, probe: true });
  service.on('error', onError);
  // the same name as a plain web server (_http._tcp): what a phone's or PC's browser lists
  const web = bonjour.publish({ name: ad.name, type: 'http', protocol: 'tcp', port: ad.port, host: ad.host, txt: { path: '/app/' }, probe: true });
  web.on('error', onError);
  return {
    service,
    bonjour,
    stop: () =>
      new Promise<void>((resolve) => {
        bonjour.unpublishAll(() => bonjour.destroy(() => resolve()));
      }),
  };
}

/**
 * The bonjour-service advertiser for stable-address.ts: true once the announcement went out
 * (probing found nobody else with the name), false on an error or when nothing was announced
 * within `upWithinMs` (a name in use, a network that drops multicast sends).
 */
export function bonjourAdvertiser(onError: (err: unknown) => void = () => {}, transport: MdnsTransport = {}, upWithinMs = 5000): Advertiser {
  let current: Announcer | null = null;
  return {
    async start(ad) {
      await current?.stop();
      let failed = false;
      const announcer = announce(ad, (err) => {
        failed = true;
        onError(err);
      }, transport);
      current = announcer;
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), upWithinMs);
        timer.unref?.();
        announcer.service.once('up', () => {
          clearTimeout(timer);
          resolve(!failed);
        });
        announcer.service.once('error', () => {
          clearTimeout(timer);
          resolve(false);
        });
      });
    },
    async stop() {
      const a = current;
      current = null;
      await a?.stop();
    },
  };
}
