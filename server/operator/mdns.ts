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
  return {
    service,
    bonjour,
    stop: () =>
      new Promise<void>((resolve) => {
        bonjour.unpublishAll(() => bonjour.destroy(() => resolve()));
      }),
  };
}
