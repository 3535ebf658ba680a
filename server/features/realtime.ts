import type { Feature, FeatureHost } from './feature.ts';
import { onCredentialsRevoked } from '../auth/revocations.ts';
import { RealtimeHub } from '../realtime/hub.ts';
import { defaultRealtimeOptions, type RealtimeOptions } from '../realtime/options.ts';
import { PgFanout } from '../realtime/pg-fanout.ts';
import { RealtimeSocketServer } from '../realtime/socket-server.ts';

/** The live feed of one server: its loop, its socket endpoint, and (cloud) its LISTEN connection. */
export interface Realtime {
  hub: RealtimeHub;
  sockets: RealtimeSocketServer;
  options: RealtimeOptions;
  fanout: PgFanout | null;
  timers: NodeJS.Timeout[];
}

declare module '../services.ts' {
  interface Services {
    /** set by the realtime feature's install() */
    realtime?: Realtime;
  }
}

/**
 * Live screens over WebSocket at /realtime on the API's port. After every commit of this
 * process the hub reads the change log; on PostgreSQL every process also LISTENs, and NOTIFYs
 * the others after its own commits.
 */
export const realtimeFeature: Feature = {
  name: 'realtime',
  install(host: FeatureHost) {
    const { services } = host;
    const options: RealtimeOptions = { ...defaultRealtimeOptions, ...services.config.realtime };
    const hub = new RealtimeHub(services, options);
    const sockets = new RealtimeSocketServer(services, hub, options);
    const fanout =
      services.dialect === 'postgres' && services.databaseUrl
        ? new PgFanout(services, services.databaseUrl, () => hub.wake(), (restaurantId) => hub.recheck(new Set([restaurantId])))
        : null;
    services.realtime = { hub, sockets, options, fanout, timers: [] };
    host.http.on('upgrade', (req, socket, head) => {
      // another path may belong to another feature's handler; with none, do not leave it hanging
      if (!sockets.handleUpgrade(req, socket, head) && host.http.listenerCount('upgrade') === 1) socket.destroy();
    });
    services.tx.onCommit(() => {
      hub.wake();
      fanout?.notify();
    });
    // a session ended here: this process's sockets at once, the others' through NOTIFY
    onCredentialsRevoked(services, (restaurantId) => {
      hub.recheck(new Set([restaurantId]));
      fanout?.notifyCredentials(restaurantId);
    });
  },
  async start(host: FeatureHost) {
    const rt = host.services.realtime!;
    await rt.hub.start();
    await rt.fanout?.start();
    rt.timers.push(
      setInterval(() => {
        rt.hub.heartbeat();
        // credentials ended where no one told us (the CLI, a session's expiry)
        rt.hub.recheck(null);
      }, rt.options.heartbeatMs),
      setInterval(() => rt.hub.wake(), rt.options.pollMs),
    );
    for (const t of rt.timers) t.unref();
  },
  async stop(host: FeatureHost) {
    const rt = host.services.realtime!;
    for (const t of rt.timers) clearInterval(t);
    rt.timers = [];
    await rt.hub.stop();
    rt.sockets.close();
    await rt.fanout?.stop();
  },
};
