#!/usr/bin/env node
// npm run dev [-- serve flags]: the sources, for development, with watch. The back office is
// rebuilt by Vite as its files change (into app/web/dist, where the server reads it); the
// server runs its TypeScript through tsx and restarts when a source changes or the back office
// was rebuilt (it reads the pages once, at start). Nothing else runs sources: see bin/build.mjs.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './build.mjs';

const flags = process.argv.slice(2);
let server = null;
function startServer() {
  server = spawn(process.execPath, ['--import', 'tsx', '--watch', path.join(ROOT, 'server/cli/main.ts'), 'serve', ...flags], { cwd: ROOT, stdio: 'inherit' });
}
function restartServer() {
  if (!server || server.exitCode !== null) return startServer();
  server.once('exit', startServer);
  server.kill('SIGTERM');
}

const vite = await import('vite');
const watcher = await vite.build({ configFile: path.join(ROOT, 'app/web/vite.config.ts'), logLevel: 'warn', build: { watch: {} } });
let first = true;
watcher.on('event', (e) => {
  if (e.code === 'ERROR') console.error(`app/web: ${e.error?.message ?? e.error}`);
  if (e.code !== 'END') return;
  if (first) {
    first = false;
    startServer();
  } else restartServer();
});
const stop = () => {
  void watcher.close();
  if (!server || server.exitCode !== null) process.exit(0);
  // the server finishes its requests and closes its database first
  server.removeAllListeners('exit');
  server.once('exit', () => process.exit(0));
  server.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
