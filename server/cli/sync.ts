import { processClock, systemClock } from '../clock.ts';
import { registerClock } from '../db/hlc.ts';
import { defaultConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { ServerProcess } from '../db/processes.ts';
import { Transactor } from '../db/transact.ts';
import { createLogger } from '../logger.ts';
import { assembleRegistry } from '../features/assemble.ts';
import type { Services } from '../services.ts';
import { compareSides, type SideSummary } from '../../sync/audit.ts';
import { createInvite } from '../../sync/cloud/link.ts';
import { callCloud, credentialOf, LineDown, readLink, Refused } from '../../sync/hub.ts';
import { linkHub, unlinkHub } from '../../sync/link.ts';
import { PROTOCOL_VERSION } from '../../sync/protocol.ts';
import { syncStatus } from '../../sync/status.ts';
import { CliError, out, readFlags } from './args.ts';
import { openFromFlags } from './open.ts';

const USAGE = `usage:
  comanda sync invite --database-url URL [--restaurant rst_…] [--json]     (on the cloud)
  comanda sync link --data-dir D --cloud-url URL --code CODE [--json]      (on the hub)
  comanda sync status --data-dir D [--json]
  comanda sync status --database-url URL [--restaurant rst_…] [--json]     (on the cloud: every linked hub)
  comanda sync audit --data-dir D [--json]
  comanda sync unlink --data-dir D [--force] [--json]   (revokes the credential on the cloud; --force: forget it here even if the cloud is unreachable)`;

/** What the sync functions need of a server, for a command that runs none. */
export function servicesFor(database: Database, dataDir: string | null): Services {
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
    // the same assembly as `comanda serve`: what a link pulls down gets the tickets, roll-ups
    // and webhooks a served hub would give it
    registry: assembleRegistry(),
  };
}

/**
 * Why a link failed, in one line that names the cloud's URL and says what to check: an
 * operator reads it at a terminal, often with the venue's internet in doubt.
 */
export function linkFailure(url: string, err: any): string {
  if (err instanceof Refused) {
    const check =
      err.status === 401 ? 'make a new code with `comanda sync invite` on the cloud' : err.status === 404 ? 'check that the URL is the comanda cloud' : 'check the code and this hub’s data dir';
    return `the cloud at ${url} refused the link (${err.status} ${err.code}): ${err.message} — ${check}`;
  }
  if (err?.constructor?.name === 'ApiError') return err.message;
  const cause = err?.cause ?? err;
  const code: string = String(err instanceof LineDown ? err.code : (cause?.code ?? err?.name ?? ''));
  const why =
    code === 'ECONNREFUSED'
      ? 'connection refused — check the address and port, and that the cloud is running'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'the host name does not resolve — check the URL and this computer’s internet'
        : /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)
          ? `the TLS handshake failed (${code}) — check the cloud’s certificate and whether the URL should be https or http`
          : code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE'
            ? 'it accepted the connection and closed it without answering — check that the URL points at the comanda cloud, not another service or proxy'
            : code === 'ETIMEDOUT' || code === 'TimeoutError' || code === 'AbortError' || code === 'ABORT_ERR' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT'
              ? 'no answer in time — check the line and that the cloud is running'
              : /without JSON/.test(String(err?.message))
                ? `${err.message} — check that the URL points at the comanda cloud`
                : `${String(cause?.message ?? err?.message ?? err).split('\n')[0]} — check the URL and the line`;
  return `cannot link to the cloud at ${url}: ${why}`;
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
        const url = flags['cloud-url'] as string;
        const r = await linkHub(services, url, flags.code as string).catch((err) => {
          throw new CliError(linkFailure(url, err));
        });
        out(
          flags,
          r,
          [`Linked as ${r.hub_id} (${r.mode === 'push' ? `pushed ${r.pushed} changes` : `pulled ${r.pulled} changes`}). \`comanda serve\` keeps it in sync.`, ...r.endpoints_moved.map((m) => `${m.cloud_reaches ? 'Note' : 'Warning'}: ${m.warning}`)].join('\n'),
        );
        break;
      }
      case 'status': {
        const link = await readLink(database.db);
        if (!link && !flags.restaurant && services.config.role === 'cloud') {
          // on a cloud: every linked hub, each with where its sync stands
          const hubs = await database.db.selectFrom('sync_hubs').select(['restaurant_id']).where('revoked_at', 'is', null).orderBy('created').execute();
          const list = await Promise.all(hubs.map((h) => syncStatus(database.db, 'cloud', h.restaurant_id, systemClock.now()).then((s) => ({ restaurant_id: h.restaurant_id, ...s }))));
          out(flags, { object: 'list', data: list }, list.length ? list.map((s) => `${s.hub_id} ${s.restaurant_id} ${s.connected ? 'connected' : 'not connected'}${s.last_error ? ` (${s.last_error})` : ''}, repair ${s.repair.state}`).join('\n') : 'No hub is linked to this cloud.');
          break;
        }
        const restaurant = (flags.restaurant as string | undefined) ?? link?.restaurant_id;
        const s = restaurant ? await syncStatus(database.db, services.config.role, restaurant, systemClock.now()) : null;
        out(flags, s ?? { object: 'sync_status', linked: false }, s?.linked ? JSON.stringify(s, null, 2) : 'Not linked.');
        break;
      }
      case 'audit': {
        const link = await readLink(database.db);
        if (!link) throw new CliError('this hub is not linked');
        const report = await compareSides(database.db, link.restaurant_id, (ask) =>
          callCloud<SideSummary>(link.cloud_url, '/audit', { protocol: PROTOCOL_VERSION, ...ask }, { credential: credentialOf(services, link), timeoutMs: 120_000 }),
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
