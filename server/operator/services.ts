import type { BackupConfig } from '../config.ts';
import type { Services } from '../services.ts';
import type { BackupResult } from './backup.ts';
import type { BackupOverrides } from './backup-settings.ts';
import type { Reachability } from './reachability.ts';
import type { StableAddress } from './stable-address.ts';

// The operator feature (features/operator.ts) fills this in; what reads it (health, the backup
// routes) sits below the feature and finds it here. `declare module` adds the field to the one
// Services interface (TypeScript's interface merging), so the core need not know the feature.
export interface OperatorServices {
  /** wall-clock ms of createServer */
  startedAt: number;
  /** seals credentials stored from the dashboard (operator/sealed.ts) */
  sealingKey: Buffer;
  /** where the server listens, once it does */
  listening: { host: string; port: number } | null;
  /** the last test of whether tablets on the LAN reach this hub (operator/reachability.ts); null until one ran */
  reachability: Reachability | null;
  /** the name and address codes are made with, and a move of it (operator/stable-address.ts); null where serve did not start one */
  addresses: StableAddress | null;
  /** whether this server can make backups at all (SQLite with a data dir) */
  canBackUp: boolean;
  /** the backup settings in force (comanda.json with the dashboard's laid over) */
  backupConfig(): BackupConfig;
  /** the dashboard's backup settings, read at start and after every change */
  backupOverrides: BackupOverrides;
  /** one online backup now, into the backup folder, then old ones pruned */
  backupNow(): Promise<BackupResult>;
  /** re-reads the dashboard's mail and SMS settings into the outbox's transports */
  applyTransports(): Promise<void>;
}

declare module '../services.ts' {
  interface Services {
    operator?: OperatorServices;
  }
}

export function operatorOf(services: Services): OperatorServices {
  if (!services.operator) throw new Error('operator feature not installed');
  return services.operator;
}
