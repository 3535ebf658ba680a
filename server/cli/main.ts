import { CliError } from './args.ts';
import { backupCommand, restoreCommand, supportBundleCommand } from './backup.ts';
import { configCommand } from './config.ts';
import { demoCommand } from './demo.ts';
import { initCommand } from './init.ts';
import { keysCommand } from './keys.ts';
import { serveCommand } from './serve.ts';
import { syncCommand } from './sync.ts';
import { staffCommand } from './staff.ts';

const USAGE = `comanda — restaurant operations hub

  comanda serve [--data-dir DIR] [--port N] [--host H] [--database-url URL] [--role hub|cloud] [--webhooks-allow-private]
  comanda init --data-dir DIR --name NAME --slug SLUG [--plan ID] [--currency eur] [--timezone Europe/Berlin] [--json]
  comanda demo --data-dir DIR [--history-days N] [--orders-per-day N] [--json]
  comanda keys create --data-dir DIR --restaurant ID_OR_SLUG --scopes a,b [--sandbox] [--widget] [--json]
  comanda sync invite|link|status|audit|unlink …   (cloud sync; \`comanda sync\` for details)
  comanda staff reset-password --email EMAIL [--restaurant SLUG] [--password P] [--data-dir DIR] [--json]
  comanda config check [--data-dir DIR] [--json]       validate comanda.json and the environment; print the effective config, secrets masked
  comanda backup --data-dir DIR [--to FILE] [--json]   an online backup (safe while the hub runs)
  comanda restore --data-dir DIR [--force] FILE [--json] replace the database with a backup (the hub must be stopped;
                                                       refused when changes the cloud never got would be lost)
  comanda support-bundle --data-dir DIR [--to FILE]    config (secrets masked), versions, last logs, database check
`;

const [cmd, ...rest] = process.argv.slice(2);
try {
  switch (cmd) {
    case 'serve':
      await serveCommand(rest);
      break;
    case 'init':
      await initCommand(rest);
      break;
    case 'demo':
      await demoCommand(rest);
      break;
    case 'keys':
      await keysCommand(rest);
      break;
    case 'sync':
      await syncCommand(rest);
      break;
    case 'staff':
      await staffCommand(rest);
      break;
    case 'config':
      await configCommand(rest);
      break;
    case 'backup':
      await backupCommand(rest);
      break;
    case 'restore':
      await restoreCommand(rest);
      break;
    case 'support-bundle':
      await supportBundleCommand(rest);
      break;
    default:
      process.stdout.write(USAGE);
      process.exitCode = cmd === undefined || cmd === 'help' || cmd === '--help' ? 0 : 2;
  }
} catch (err: any) {
  const known = err instanceof CliError || err?.code?.startsWith?.('ERR_PARSE_ARGS') || ['ApiError', 'Refused'].includes(err?.constructor?.name);
  process.stderr.write(`comanda ${cmd}: ${known ? err.message : (err?.stack ?? err)}\n`);
  process.exitCode = known ? 2 : 1;
}
