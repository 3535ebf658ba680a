import { systemClock } from '../clock.ts';
import { Transactor } from '../db/transact.ts';
import { createLogger } from '../logger.ts';
import { provisionRestaurant } from '../domain/restaurants/provision.ts';
import { createServer } from '../server.ts';
import { setupNeeded } from '../domain/staff/setup.ts';
import { describe } from './init.ts';
import { CliError, readFlags } from './args.ts';
import { openFromFlags } from './open.ts';

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
  const port = Number(flags.port ?? process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError('--port must be 0–65535');
  const host = (flags.host as string | undefined) ?? process.env.HOST ?? '0.0.0.0';
  if (flags.role !== undefined && flags.role !== 'hub' && flags.role !== 'cloud') throw new CliError("--role must be 'hub' or 'cloud'");
  const logger = createLogger({ toStderr: Boolean(flags.json) });
  const database = await openFromFlags(flags);
  const role = ((flags.role as string | undefined) ?? (database.dialect === 'postgres' ? 'cloud' : 'hub')) as 'hub' | 'cloud';

  // First start on an empty hub: make a restaurant so the owner has keys to start with.
  const any = await database.db.selectFrom('restaurants').select('id').limit(1).executeTakeFirst();
  let firstRun: Awaited<ReturnType<typeof provisionRestaurant>> | null = null;
  if (!any && role === 'hub') {
    firstRun = await provisionRestaurant(new Transactor(database.db), systemClock.now(), {
      name: 'My Restaurant',
      slug: 'my-restaurant',
    });
    if (!flags.json) process.stdout.write(`\nFirst start: created a restaurant.\n${describe(firstRun)}\n\n`);
  }

  const server = createServer({
    database,
    logger,
    scheduler: true,
    config: {
      role,
      publicUrl: (flags['public-url'] as string | undefined) ?? `http://127.0.0.1:${port}`,
      ...(flags['webhooks-allow-private'] ? { webhooks: { allowPrivateTargets: true } } : {}),
    },
  });
  const { url } = await server.listen(port, host);
  // No owner can sign in yet: the back office opens on its setup page. On the hub itself it
  // needs nothing more; from another device it asks for this code, shown only here.
  const setup = (await setupNeeded(database.db)) ? { url: `http://127.0.0.1:${new URL(url).port}/app/`, code: server.setupCode() } : null;
  if (setup && !flags.json) {
    process.stdout.write(`Set up the back office: open ${setup.url} on this machine (from another device, give the setup code ${setup.code}).\n\n`);
  }
  logger.info({ url, dialect: database.dialect, role }, 'comanda is serving');
  // With --json, one line tells a supervisor (the desktop shell, a script) where to connect.
  if (flags.json) process.stdout.write(`${JSON.stringify({ url, dialect: database.dialect, role, first_run: firstRun, setup })}\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: finishing in-flight requests');
    server.close().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (err) => {
        logger.error({ err }, 'stop failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
