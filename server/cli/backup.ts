import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { backupDataDir, backupName } from '../operator/backup.ts';
import { recordBackup } from '../operator/backup-status.ts';
import { HubLockedError } from '../operator/hub-lock.ts';
import { loadConfig } from '../operator/load-config.ts';
import { restoreDataDir, RestoreError } from '../operator/restore.ts';
import { supportBundle } from '../operator/support-bundle.ts';
import { CliError, out, readFlags } from './args.ts';

/** `comanda backup --data-dir D [--to FILE]`: an online backup, safe while the hub runs. */
export async function backupCommand(argv: string[]) {
  const flags = readFlags(argv, { 'data-dir': 'string', to: 'string', json: 'boolean' });
  const dataDir = path.resolve((flags['data-dir'] as string | undefined) ?? './data');
  const now = Date.now();
  let dest: string;
  try {
    dest = flags.to ? path.resolve(flags.to as string) : path.join(loadConfig({ dataDir }).backups.dir, backupName(now));
  } catch (err: any) {
    throw new CliError(`configuration refused:\n${err.message}`);
  }
  try {
    const r = await backupDataDir(dataDir, dest);
    recordBackup(dataDir, now, { ok: true, ...r });
    out(flags, { file: r.file, size_bytes: r.bytes, duration_ms: r.ms }, `backed up to ${r.file} (${r.bytes} bytes, ${r.ms} ms)`);
  } catch (err: any) {
    throw new CliError(`backup failed: ${err.message}`);
  }
}

/** `comanda restore --data-dir D FILE`: refused while a hub runs on D. */
export async function restoreCommand(argv: string[]) {
  const { values: flags, positionals } = parseArgs({ args: argv, options: { 'data-dir': { type: 'string' }, json: { type: 'boolean' }, force: { type: 'boolean' } }, allowPositionals: true, strict: true });
  const [file, ...extra] = positionals;
  if (!file || extra.length) throw new CliError('usage: comanda restore --data-dir DIR [--force] BACKUP_FILE');
  const dataDir = path.resolve((flags['data-dir'] as string | undefined) ?? './data');
  try {
    const r = await restoreDataDir(dataDir, path.resolve(file), Date.now(), { force: flags.force === true });
    out(
      flags,
      { restored: r.restored, kept_aside: r.keptAside, epoch: r.epoch },
      `restored ${r.restored}\n${r.keptAside ? `the database it replaced is kept at ${r.keptAside}\n` : ''}sync will re-send everything to the cloud (new epoch ${r.epoch})`,
    );
  } catch (err: any) {
    if (err instanceof HubLockedError || err instanceof RestoreError) throw new CliError(`restore refused: ${err.message}`);
    throw err;
  }
}

/** `comanda support-bundle --data-dir D [--to FILE]`: one JSON file for support, secrets masked. */
export async function supportBundleCommand(argv: string[]) {
  const flags = readFlags(argv, { 'data-dir': 'string', to: 'string', json: 'boolean' });
  const dataDir = path.resolve((flags['data-dir'] as string | undefined) ?? './data');
  let config: ReturnType<typeof loadConfig> | { error: string };
  try {
    config = loadConfig({ dataDir });
  } catch (err: any) {
    // a broken config is often why support is needed: the bundle says what is wrong with it
    config = { error: err.message };
  }
  const now = Date.now();
  const file = path.resolve((flags.to as string | undefined) ?? `comanda-support-${new Date(now).toISOString().replace(/[:.]/g, '-')}.json`);
  const bundle = supportBundle(dataDir, config, now);
  fs.writeFileSync(file, `${JSON.stringify(bundle, null, 2)}\n`);
  out(flags, { file, database: bundle.database }, `support bundle written to ${file}`);
}
