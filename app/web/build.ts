/**
 * Builds the back office into app/web/dist: Vite, then a gzip and a brotli copy of every
 * text file for the server to send as is. `--if-stale` skips the work when the sources are
 * what the last build was made from (npm start and npm test call it that way).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const here = import.meta.dirname;
const dist = path.join(here, 'dist');
const stampFile = path.join(dist, '.source-hash');

function sourceHash(): string {
  const h = createHash('sha256');
  const add = (p: string) => {
    const st = fs.statSync(p);
    if (st.isDirectory()) for (const e of fs.readdirSync(p).sort()) add(path.join(p, e));
    else h.update(path.relative(here, p)).update(fs.readFileSync(p));
  };
  for (const p of ['src', 'index.html', 'service.html', 'screens.html', 'guest.html', 'public', 'vite.config.ts', 'build.ts']) if (fs.existsSync(path.join(here, p))) add(path.join(here, p));
  const lock = path.join(here, '../../package-lock.json');
  if (fs.existsSync(lock)) h.update(fs.readFileSync(lock));
  return h.digest('hex');
}

const hash = sourceHash();
if (process.argv.includes('--if-stale') && fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === hash) process.exit(0);

let vite: typeof import('vite');
try {
  vite = await import('vite');
} catch {
  // installed without dev dependencies: a build shipped with the package is all there is
  if (fs.existsSync(path.join(dist, 'index.html'))) process.exit(0);
  console.error('app/web: vite is not installed and there is no build; run npm install');
  process.exit(1);
}
const started = Date.now();
await vite.build({ configFile: path.join(here, 'vite.config.ts'), logLevel: 'warn' });

let raw = 0;
let gz = 0;
const walk = (d: string) => {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const full = path.join(d, e.name);
    if (e.isDirectory()) walk(full);
    else if (/\.(js|css|html|svg|json|webmanifest|txt)$/.test(e.name)) {
      const buf = fs.readFileSync(full);
      const g = zlib.gzipSync(buf, { level: 9 });
      fs.writeFileSync(`${full}.gz`, g);
      fs.writeFileSync(`${full}.br`, zlib.brotliCompressSync(buf, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
      if (e.name.endsWith('.js')) {
        raw += buf.length;
        gz += g.length;
      }
    }
  }
};
walk(dist);
fs.writeFileSync(stampFile, hash);
console.log(`app/web built in ${((Date.now() - started) / 1000).toFixed(1)} s: ${(raw / 1024).toFixed(0)} KB of JavaScript, ${(gz / 1024).toFixed(0)} KB gzipped`);
