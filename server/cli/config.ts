import path from 'node:path';
import type { OperatorConfig } from '../operator/config-schema.ts';
import { defaultPublicUrl } from '../operator/lan.ts';
import { ConfigError, loadConfig, type EffectiveConfig, type LoadOptions } from '../operator/load-config.ts';
import { maskedConfig } from '../operator/mask.ts';
import { CliError, readFlags, type Flags } from './args.ts';

/** The flags every server command shares, laid over comanda.json and the environment. */
export function configFromFlags(flags: Flags, opts: Pick<LoadOptions, 'defaultPublicUrl'> = {}): EffectiveConfig {
  const over: OperatorConfig = {};
  if (flags.port !== undefined) {
    const port = Number(flags.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError('--port must be 0–65535');
    over.port = port;
  }
  if (flags.role !== undefined) {
    if (flags.role !== 'hub' && flags.role !== 'cloud') throw new CliError("--role must be 'hub' or 'cloud'");
    over.role = flags.role;
  }
  if (flags.host !== undefined) over.host = flags.host as string;
  if (flags['public-url'] !== undefined) over.publicUrl = flags['public-url'] as string;
  if (flags['database-url'] !== undefined) over.databaseUrl = flags['database-url'] as string;
  try {
    const cfg = loadConfig({ dataDir: path.resolve((flags['data-dir'] as string | undefined) ?? './data'), flags: over, ...opts });
    return cfg;
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(`configuration refused:\n${err.message}`);
    throw err;
  }
}

/** `comanda config check`: validates file and environment, prints the effective config with secrets masked. */
export async function configCommand(argv: string[]) {
  const [sub, ...rest] = argv;
  if (sub !== 'check') throw new CliError('usage: comanda config check [--data-dir DIR] [--json]');
  const flags = readFlags(rest, { 'data-dir': 'string', 'database-url': 'string', port: 'string', host: 'string', 'public-url': 'string', role: 'string', json: 'boolean' });
  const masked = maskedConfig(configFromFlags(flags, { defaultPublicUrl: (port) => defaultPublicUrl(port) }));
  process.stdout.write(flags.json ? `${JSON.stringify(masked)}\n` : `configuration is valid\n${JSON.stringify(masked, null, 2)}\n`);
}
