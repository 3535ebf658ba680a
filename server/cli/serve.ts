import path from 'node:path';
import { processClock, systemClock } from '../clock.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { createLogger } from '../logger.ts';
import { provisionRestaurant } from '../domain/restaurants/provision.ts';
import { FIRST_START_SLUG, setupNeeded } from '../domain/staff/setup.ts';
import { acquireHubLock } from '../operator/hub-lock.ts';
import { classifyStartFailure } from '../operator/start-failure.ts';
import { defaultPublicUrl, reachableUrls } from '../operator/lan.ts';
import { advertisement, bonjourAdvertiser } from '../operator/mdns.ts';
import { StableAddress } from '../operator/stable-address.ts';
import { LOG_FILE } from '../operator/support-bundle.ts';
import { RotatingLog } from '../operator/rotating-log.ts';
import { startStatusReports, statusReport } from './status-report.ts';
import { checkReachability, probeTarget } from '../operator/reachability.ts';
import { operatorOf } from '../operator/services.ts';
import { VERSION } from '../operator/version.ts';
import { startWatchdog } from '../operator/watchdog.ts';
import { watchClockSteps } from '../operator/clock-steps.ts';
import { createServer, type ComandaServer } from '../server.ts';
import { describe } from './init.ts';
import { CliError, readFlags } from './args.ts';
import { parentChannel } from './parent-channel.ts';
import { configFromFlags } from './config.ts';
import { startFailure } from './start-failure.ts';

export async function serveCommand(argv: string[]) {
  const flags = readFlags(argv, {
    'data-dir': 'string',
    'database-url': 'string',
    port: 'string',
    host: 'string',
    'public-url': 'string',
    role: 'string',
    // a cloud inside a private network (or a test) may post webhooks to private addresses
    'webhooks-allow-private': 'boolean',
    json: 'boolean',
  });
  const cfg = configFromFlags(flags, { defaultPublicUrl: (port) => defaultPublicUrl(port) });
  // the hub keeps its own log in the data dir (size-capped), for `comanda support-bundle`
  const where = { port: cfg.port, host: cfg.host, dataDir: cfg.databaseUrl ? null : cfg.dataDir };
  // Under a supervisor (the desktop app): why a start failed, then health and opening hours.
  const parent = parentChannel();
  // A start that fails tells its supervisor why in a form it can act on (the desktop's status
  // window), and says it in one sentence on stderr.
  const failedToStart = async (err: unknown): Promise<never> => {
    if (err instanceof CliError) throw err;
    const failure = classifyStartFailure(err, { dataDir: cfg.dataDir, port: cfg.port, backupsDir: cfg.databaseUrl ? null : cfg.backups.dir });
    await parent?.sendNow(failure);
    // the sentence for a person (start-failure.ts) where it has one, else the classifier's
    const plain = startFailure(err, where);
    if (plain instanceof CliError || failure.reason === 'unknown') throw plain;
    throw new CliError(failure.message);
  };

  let logFile: RotatingLog | undefined;
  try {
    logFile = cfg.databaseUrl ? undefined : new RotatingLog(path.join(cfg.dataDir, LOG_FILE), 10 * 1024 * 1024, 3);
  } catch (err) {
    // the first write to the data dir: a folder this user may not write says so here
    return failedToStart(err);
  }
  const logger = createLogger({ toStderr: Boolean(flags.json), file: logFile });
  const role = cfg.server.role;
  if (flags['webhooks-allow-private']) cfg.server.webhooks = { ...cfg.server.webhooks, allowPrivateTargets: true };

  // One hub per data dir; `comanda restore` checks the same lock.
  let lock: ReturnType<typeof acquireHubLock> | null = null;
  if (!cfg.databaseUrl) {
    try {
      lock = acquireHubLock(cfg.dataDir);
    } catch (err) {
      await failedToStart(err);
    }
  }
  let database: Database | null = null;
  let server: ComandaServer | null = null;
  let firstRun: Awaited<ReturnType<typeof provisionRestaurant>> | null = null;
  let port: number;
  try {
    database = await openDatabase({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir });
    server = createServer({ database, logger, scheduler: true, config: cfg.server, clock: processClock() });
    ({ port } = await server.listen(cfg.port, cfg.host));
    // First start on an empty hub: make a restaurant so the owner has keys to start with
    // (only once listening: keys made by a start that then failed would never be shown).
    const any = await database.db.selectFrom('restaurants').select('id').limit(1).executeTakeFirst();
    if (!any && role === 'hub') {
      firstRun = await provisionRestaurant(server.services.tx, systemClock.now(), {
        name: 'My Restaurant',
        slug: FIRST_START_SLUG,
      });
      if (!flags.json) {
        process.stdout.write(`\nFirst start: created a restaurant and its API keys (shown this once).\n${describe(firstRun)}\nIts name, time zone and currency are set on the back office's setup page.\n\n`);
      }
    }
  } catch (err) {
    // A port in use, a database that will not open: let go of everything so the process
    // ends (a supervisor then retries) instead of idling with the database open.
    await (server ? server.close() : database?.close())?.catch(() => {});
    lock?.release();
    return failedToStart(err);
  }
  const urls = reachableUrls(cfg.host, port);
  // a port of 0 was resolved only now: a defaulted publicUrl follows the real port
  if (cfg.publicUrlDefaulted && cfg.port === 0) server.services.config.publicUrl = defaultPublicUrl(port);
  const publicUrl = server.services.config.publicUrl;
  lock?.update({ url: urls[0] });
  logger.info({ urls, publicUrl, dialect: database.dialect, role }, 'comanda is serving');

  // QR codes, pairing links and the Share page carry the hub's mDNS name where the LAN carries
  // it, else the IP; a move of the PC's address is noticed and the codes to reprint named
  // (operator/stable-address.ts). Announced only where the LAN can reach: not on loopback.
  const announceable = cfg.mdns && !/^(127\.|::1$|localhost$)/.test(cfg.host);
  const first = await database.db.selectFrom('restaurants').select(['slug', 'name']).orderBy('created').limit(1).executeTakeFirst();
  const node = await database.db.selectFrom('node_state').select('origin').executeTakeFirstOrThrow();
  const ad = announceable ? advertisement({ port, slug: first?.slug ?? null, restaurantName: first?.name ?? null, nodeId: node.origin, version: VERSION, publicUrl }) : null;
  // the name tablets may open the back office by (http/hosts.ts)
  if (ad) server.services.config.allowedHosts = [...server.services.config.allowedHosts, ad.host];
  const liveServer = server;
  const addresses =
    role === 'hub'
      ? new StableAddress({
          port,
          configuredPublicUrl: cfg.publicUrlDefaulted ? null : publicUrl,
          advertiser: ad ? bonjourAdvertiser((err) => logger.warn({ err }, 'mDNS announcement failed; tablets can still use the address')) : null,
          advertisement: ad,
          dataDir: cfg.databaseUrl ? null : cfg.dataDir,
          now: () => liveServer.services.clock.now(),
          onPublicUrl: (url) => {
            liveServer.services.config.publicUrl = url;
            logger.info({ publicUrl: url }, 'QR codes and links now use this address');
          },
        })
      : null;
  if (addresses) {
    operatorOf(server.services).addresses = addresses;
    await addresses.start();
    if (ad) logger.info({ name: ad.name, type: `_${ad.type}._tcp`, host: ad.host, announced: addresses.stableUrl !== null }, 'announced on the LAN (mDNS)');
    if (addresses.change) logger.warn({ change: addresses.change }, 'the hub\'s LAN address changed: QR codes embedding the old one must be printed again');
  }
  const publicUrlNow = server.services.config.publicUrl;

  // No owner can sign in yet: the back office opens on its setup page. On the hub itself it
  // needs nothing more; from another device it asks for this code, shown only here.
  const setup = (await setupNeeded(database.db)) ? { url: `http://127.0.0.1:${port}/app/`, code: server.setupCode() } : null;
  if (flags.json) {
    // One line tells a supervisor (the desktop shell, a script) where to connect.
    process.stdout.write(`${JSON.stringify({ url: urls[0], urls, public_url: publicUrlNow, port, dialect: database.dialect, role, pid: process.pid, first_run: firstRun, setup })}\n`);
  } else {
    process.stdout.write(`comanda ${VERSION} is serving (${role}, ${database.dialect}). Open it at:\n${urls.map((u) => `  ${u}`).join('\n')}\nQR codes and links use ${publicUrlNow}\n`);
    if (setup) process.stdout.write(`Set up the back office: open ${setup.url} on this machine (from another device, give the setup code ${setup.code}).\n\n`);
  }

  const stopReports = parent ? startStatusReports(server, (r) => parent.send(r)) : () => {};

  // A stuck request thread runs no signal handler: the watchdog ends such a hub (operator/watchdog.ts).
  const watchdog = startWatchdog({ stallMs: envMs('COMANDA_STALL_EXIT_MS', 60_000), logFile: cfg.databaseUrl ? undefined : path.join(cfg.dataDir, LOG_FILE) });
  const graceMs = envMs('COMANDA_STOP_GRACE_MS', 10_000);
  // a step of the PC's clock is said once in the log, with its size
  const stopClockWatch = watchClockSteps(server.services.clock, logger);

  let stopping = false;
  let stopReach = () => {};
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    stopReports();
    stopReach();
    stopClockWatch();
    logger.info({ signal }, 'stopping: finishing in-flight requests');
    // The watchdog's thread ends before process.exit: an exit with it still running sometimes
    // never returned (5 of 18 hubs stopped just after they started stayed alive, port closed,
    // the main thread waiting on the worker for ever).
    const exit = (code: number) => void watchdog.stop().finally(() => process.exit(code));
    // a stop that hangs (a job that never ends, a disk that never answers) still ends the
    // process; within the desktop supervisor's own limit (15 s), so ours comes first and is logged
    setTimeout(() => {
      lock?.release();
      logger.error({ signal, graceMs }, 'stop took too long: exiting now');
      exit(1);
    }, graceMs);
    Promise.all([addresses?.stop(), server.close()])
      .then(
        () => {
          lock?.release();
          logger.info('stopped');
          exit(0);
        },
        (err) => {
          lock?.release();
          logger.error({ err }, 'stop failed');
          exit(1);
        },
      );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // A supervisor (the desktop app) asks for a graceful stop with a message: on Windows there
  // is no SIGTERM to send. When it dies without asking, the hub stops too, so it does not keep
  // the data dir's lock and the port from the app's next start.
  parent?.onMessage((m: any) => m?.type === 'shutdown' && stop('shutdown message'));
  parent?.onGone(() => stop('supervisor gone'));

  // Can a tablet reach us? Asked of our own LAN address now and then (and when the desktop
  // asks, after the owner fixed the firewall); the answer goes into the health report.
  const target = role === 'hub' ? probeTarget(urls, publicUrl) : null;
  const checkReach = async () => {
    if (!target || stopping) return;
    const r = await checkReachability(target, null, Date.now());
    operatorOf(server.services).reachability = r;
    if (!r.reachable) logger.warn({ reachability: r }, 'tablets cannot reach the hub at its LAN address');
  };
  if (target) {
    void checkReach().then(() => parent && statusReport(server).then((s) => parent.send(s), () => {}));
    const reachTimer = setInterval(() => void checkReach(), 10 * 60_000);
    reachTimer.unref();
    stopReach = () => clearInterval(reachTimer);
  }
  // the PC's address, every minute: a DHCP lease that moved is noticed while the hub runs
  if (addresses) {
    const addressTimer = setInterval(() => {
      const before = addresses.change;
      const change = addresses.check();
      if (change && change !== before) {
        logger.warn({ change }, 'the hub\'s LAN address changed: QR codes embedding the old one must be printed again');
        if (parent) void statusReport(server).then((s) => parent.send(s), () => {});
      }
    }, 60_000);
    addressTimer.unref();
    const stopBefore = stopReach;
    stopReach = () => {
      stopBefore();
      clearInterval(addressTimer);
    };
  }
  parent?.onMessage((m: any) => {
    if (m?.type === 'address_change_acknowledged' && addresses) {
      addresses.acknowledge();
      void statusReport(server).then((s) => parent.send(s), () => {});
    }
    if (m?.type === 'recheck_reachability') void checkReach().then(() => statusReport(server).then((s) => parent.send(s), () => {}));
  });
}

/** A duration from the environment (ms), for operators and tests; the default when unset or not a positive number. */
function envMs(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
}
