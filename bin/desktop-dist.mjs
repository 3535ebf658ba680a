#!/usr/bin/env node
// npm run desktop:dist [-- electron-builder options]
//
// The one build (bin/build.mjs: the back office, the hub and the desktop main process), then
// electron-builder with electron-builder.yml. The update feed is added only when
// COMANDA_UPDATE_FEED_URL is set: electron-builder writes it into the app (app-update.yml),
// and a build without one (a local build, CI) must not stop for its lack. Publishing is
// never done here: the files in dist/installers are uploaded to the feed by whoever releases.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { build, ROOT } from './build.mjs';

/** The electron-builder command line: the given options, plus the feed when one is configured. */
export function builderArgs(args, env = process.env) {
  const out = ['--config', 'electron-builder.yml', ...args];
  const feed = env.COMANDA_UPDATE_FEED_URL?.trim();
  if (feed) out.push('-c.publish.provider=generic', `-c.publish.url=${feed}`, '-c.publish.channel=latest');
  if (!args.some((a) => a === '--publish' || a.startsWith('--publish=') || a === '-p')) out.push('--publish', 'never');
  return out;
}

if (process.argv[1] && import.meta.filename === (await import('node:fs')).realpathSync(process.argv[1])) {
  await build({ ifStale: true });
  const cli = createRequire(import.meta.url).resolve('electron-builder/cli.js');
  const r = spawnSync(process.execPath, [cli, ...builderArgs(process.argv.slice(2))], { cwd: ROOT, stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
