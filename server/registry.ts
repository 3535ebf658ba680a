import type { SyncHooks } from '../sync/apply-context.ts';
import type { Expandables } from './http/expand.ts';
import type { RealtimeRegistry } from './realtime/registry.ts';

/**
 * What one server's features declared, assembled once by createServer (and by every CLI
 * command that writes, through the same server/features/assemble.ts): the hooks that run inside
 * a command's transaction (and after a sync batch), the expandable types of the API, and what the live feed can show.
 * Nothing of it is process-wide: two servers in one process each hold their own.
 */
export interface Registry {
  hooks: SyncHooks;
  expandables: Expandables;
  realtime: RealtimeRegistry;
}

// The core's member of Services, declared here so that services.ts, which every layer
// imports, does not import the layers the registry is made of.
declare module './services.ts' {
  interface Services {
    registry: Registry;
  }
}
