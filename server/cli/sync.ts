import { processClock, systemClock } from '../clock.ts';
import { registerClock } from '../db/hlc.ts';
import { defaultConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { ServerProcess } from '../db/processes.ts';
import { Transactor } from '../db/transact.ts';
import { createLogger } from '../logger.ts';
import type { Services } from '../services.ts';
import { compareSides, type SideSummary } from '../../sync/audit.ts';
import { createInvite } from '../../sync/cloud.ts';
import { callCloud, credentialOf, readLink } from '../../sync/hub.ts';
import { linkHub, unlinkHub } from '../../sync/link.ts';
import { PROTOCOL_VERSION } from '../../sync/protocol.ts';
import { syncStatus } from '../../sync/status.ts';
import { CliError, out, readFlags } from './args.ts';
import { openFromFlags } from './open.ts';
// the order hooks (kitchen tickets, analytics) must run for what a link pulls down
import '../features/index.ts';

const USAGE = `usage:
  comanda sync invite --database-url URL [--restaurant rst_…] [--json]     (on the cloud)
  comanda sync link --data-dir D --cloud-url URL --code CODE [--json]      (on the hub)
  comanda sync status --data-dir D [--json]
  comanda sync audit --data-dir D [--json]
  comanda sync unlink --data-dir D [--force] [--json]   (revokes the credential on the cloud; --force: forget it here even if the cloud is unreachable)`;

/** What the sync functions need of a server, for a command that runs none. */
function servicesFor(database: Database, dataDir: string | null): Services {
  const logger = createLogger({ toStderr: true });
  const clock = processClock();
  registerClock(database.db, () => clock.now());
  return {
    db: database.db,
    dialect: database.dialect,
    databaseUrl: database.url,
    tx: new Transactor(database.db),
    clock,
    logger,
    // never registered: this command takes no Idempotency-Keys
    process: new ServerProcess(database.db, database.dialect, database.url, logger),
    // the data dir holds the key that seals the hub's sync credential
    config: { ...defaultConfig, role: database.dialect === 'postgres' ? 'cloud' : 'hub', dataDir },
  };
}

export async function syncCommand(argv: string[]) {
  const [sub, ...rest] = argv;
  const flags = readFlags(rest, {
    'data-dir': 'string',
    'database-url': 'string',
    'cloud-url': 'string',
    code: 'string',
    restaurant: 'string',
    json: 'boolean',
    force: 'boolean',
  });
  if (!['invite', 'link', 'status', 'audit', 'unlink'].includes(sub ?? '')) throw new CliError(USAGE);
  const database = await openFromFlags(flags);
  const services = servicesFor(database, database.dialect === 'sqlite' ? ((flags['data-dir'] as string | undefined) ?? './data') : null);
  try {
    switch (sub) {
      case 'invite': {
        const invite = await createInvite(database.db, systemClock.now(), (flags.restaurant as string | undefined) ?? null);
        out(flags, invite, `Link code: ${invite.code}\nValid until ${new Date(invite.expires * 1000).toISOString()}, once. On the hub: comanda sync link --code ${invite.code} …`);
        break;
      }
      case 'link': {
        if (!flags['cloud-url'] || !flags.code) throw new CliError('sync link needs --cloud-url and --code');
        const r = await linkHub(services, flags['cloud-url'] as string, flags.code as string);
        out(flags, r, `Linked as ${r.hub_id} (${r.mode === 'push' ? `pushed ${r.pushed} changes` : `pulled ${r.pulled} changes`}). \`comanda serve\` keeps it in sync.`);
        break;
      }
      case 'status': {
        const link = await readLink(database.db);
        const restaurant = (flags.restaurant as string | undefined) ?? link?.restaurant_id;
        const s = restaurant ? await syncStatus(database.db, services.config.role, restaurant, systemClock.now()) : null;
        out(flags, s ?? { object: 'sync_status', linked: false }, s?.linked ? JSON.stringify(s, null, 2) : 'Not linked.');
        break;
      }
      case 'audit': {
        const link = await readLink(database.db);
        if (!link) throw new CliError('this hub is not linked');
        const report = await compareSides(database.db, link.restaurant_id, (detail) =>
          callCloud<SideSummary>(link.cloud_url, '/audit', { protocol: PROTOCOL_VERSION, detail }, { credential: credentialOf(services, link), timeoutMs: 120_000 }),
        );
        out(flags, report, report.in_sync ? 'In sync.' : JSON.stringify(report, null, 2));
        if (!report.in_sync) process.exitCode = 3;
        break;
      }
      case 'unlink': {
        const r = await unlinkHub(services, { force: flags.force === true });
        out(flags, r, !r.was ? 'Was not linked.' : r.revoked ? `Unlinked (${r.was}); the cloud revoked its credential.` : `Unlinked here (${r.was}); the cloud could not be told: its credential stays valid there.`);
        break;
      }
    }
  } finally {
    await database.close();
  }
}
