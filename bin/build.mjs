#!/usr/bin/env node
// node bin/build.mjs [--if-stale] [web] [hub] [desktop]      (no part named: all three)
//
// The one build. What runs is always built output, made here:
//   web      app/web/dist      the back office, screens and guest pages (Vite, app/web/build.ts)
//   hub      dist/hub          the hub server as one JavaScript file (esbuild), run by bin/comanda
//   desktop  dist/electron     the desktop app's main process and preload (esbuild), run by Electron
// `npm install` (prepare), `npm run build`, `npm start` (prestart), the tests' global setup and
// `npm run desktop:dist` call it. With --if-stale a part is skipped when its stamp says it was
// made from the files, settings and package versions on disk; this is the only freshness check
// there is. Nothing at run time checks or compiles: bin/comanda and the packaged app run what
// is there (`npm run dev` runs the sources instead).
//
// Plain JavaScript, Node's own modules only at the top: it must run before anything is built.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = 'stamp.json';
// what else decides the output: this file (the build options) and the TypeScript settings
const SETTINGS = ['bin/build.mjs', 'tsconfig.json'];
const FORMAT = 2;
// native, optional or never used: loaded from node_modules at run time if at all
const EXTERNAL = ['better-sqlite3', 'pg-native', 'bufferutil', 'utf-8-validate', 'electron', 'electron-updater'];
// bundled CommonJS packages require Node's own modules
const REQUIRE_SHIM = "import { createRequire as __comandaRequire } from 'node:module';\nconst require = __comandaRequire(import.meta.url);";

/**
 * A build folder: `dist/hub` (or COMANDA_BUILD_DIR, relative to the root: tests build
 * elsewhere) or `dist/electron`. It must sit two folders below the root, as every source
 * does: `../../package.json`, `../../app/web/dist`, `../../bin/comanda` (files found next to
 * a source through import.meta.url) and node_modules then resolve from the bundle as they
 * do from the sources.
 */
export function outDirOf(part, env = process.env) {
  const dir = path.resolve(ROOT, part === 'hub' ? env.COMANDA_BUILD_DIR || 'dist/hub' : 'dist/electron');
  const rel = path.relative(ROOT, dir).split(path.sep);
  if (rel.length !== 2 || rel[0] === '..' || rel.includes('')) throw new Error(`the build folder must be two levels below ${ROOT} (like dist/hub), not ${dir}`);
  return dir;
}

/** What esbuild makes of each bundled part: entry points, each with its output file and format. */
const BUNDLES = {
  hub: [{ entry: 'server/cli/main.ts', out: 'comanda.mjs', format: 'esm' }],
  desktop: [
    { entry: 'app/desktop/electron-entry.ts', out: 'main.mjs', format: 'esm' },
    // sandboxed preloads are CommonJS and may require only a few Electron modules
    { entry: 'app/desktop/preload.cjs', out: 'preload.cjs', format: 'cjs' },
  ],
};

const sha = (data) => createHash('sha256').update(data).digest('hex');
const read = (rel) => fs.readFileSync(path.join(ROOT, rel));
const versionOf = (pkgDir) => JSON.parse(fs.readFileSync(path.join(ROOT, pkgDir, 'package.json'), 'utf8')).version;
const settingsHash = () => sha(SETTINGS.map((f) => `${f}\0${sha(read(f))}`).join('\n'));

/** Whether a bundled part in outDir was made from the sources, settings and package versions now on disk. */
export function isFresh(part, outDir = outDirOf(part)) {
  let stamp;
  try {
    stamp = JSON.parse(fs.readFileSync(path.join(outDir, STAMP), 'utf8'));
  } catch {
    return false;
  }
  if (stamp?.format !== FORMAT || stamp.part !== part) return false;
  try {
    if (BUNDLES[part].some((b) => !fs.existsSync(path.join(outDir, b.out)))) return false;
    if (stamp.settings !== settingsHash()) return false;
    for (const [rel, hash] of Object.entries(stamp.sources)) if (sha(read(rel)) !== hash) return false;
    for (const [dir, version] of Object.entries(stamp.packages)) if (versionOf(dir) !== version) return false;
  } catch {
    // a source or package gone
    return false;
  }
  return true;
}

/** Bundles a part into outDir; its files and stamp replace the old ones whole. */
export async function buildBundle(part, outDir = outDirOf(part)) {
  const esbuild = await import('esbuild');
  const started = Date.now();
  const sources = {};
  // Hashes each source as esbuild reads it, so the stamp names exactly what went in.
  const stampSources = {
    name: 'stamp-sources',
    setup(b) {
      b.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
        const rel = path.relative(ROOT, args.path).split(path.sep).join('/');
        if (rel.startsWith('..') || rel.includes('node_modules/')) return undefined;
        const contents = fs.readFileSync(args.path, 'utf8');
        if (/import\.meta\.(url|dirname|filename)/.test(contents) && rel.split('/').length !== 3) {
          throw new Error(`${rel} finds files through import.meta but is not two folders below the root like the bundle; it would look in the wrong place once bundled`);
        }
        sources[rel] = sha(contents);
        return { contents, loader: /\.[cm]?ts$/.test(rel) ? 'ts' : 'js' };
      });
    },
  };
  const packages = {};
  const outputs = [];
  for (const b of BUNDLES[part]) {
    const result = await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: [path.join(ROOT, b.entry)],
      outfile: path.join(outDir, b.out),
      bundle: true,
      platform: 'node',
      format: b.format,
      target: 'node20',
      external: EXTERNAL,
      banner: b.format === 'esm' ? { js: REQUIRE_SHIM } : undefined,
      sourcemap: b.format === 'esm' ? 'linked' : false,
      metafile: true,
      write: false,
      logLevel: 'warning',
      plugins: [stampSources],
    });
    for (const input of Object.keys(result.metafile.inputs)) {
      const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
      if (m && !(m[1] in packages)) packages[m[1]] = versionOf(m[1]);
    }
    outputs.push(...result.outputFiles.map((f) => [path.basename(f.path), f.contents]));
  }
  const stamp = { format: FORMAT, part, built_at: new Date().toISOString(), settings: settingsHash(), sources, packages };
  fs.mkdirSync(outDir, { recursive: true });
  // Written aside and renamed: a start that reads the folder meanwhile, or another build of
  // the same sources racing this one, finds whole files. The stamp goes last, so a bundle
  // is never stamped before it is in place.
  const tmp = `.tmp-${process.pid}-${Date.now()}`;
  const files = [...outputs, [STAMP, JSON.stringify(stamp, null, 1)]];
  for (const [name, contents] of files) fs.writeFileSync(path.join(outDir, name + tmp), contents);
  for (const [name] of files) fs.renameSync(path.join(outDir, name + tmp), path.join(outDir, name));
  return { dir: outDir, ms: Date.now() - started, sources: Object.keys(sources).length, packages: Object.keys(packages).length };
}

/** The back office: app/web/build.ts, which keeps its own stamp (app/web/dist/.source-hash). */
function buildWeb(ifStale) {
  execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'app/web/build.ts'), ...(ifStale ? ['--if-stale'] : [])], { cwd: ROOT, stdio: 'inherit' });
}

export const PARTS = ['web', 'hub', 'desktop'];

/** Builds the parts named (all by default); with ifStale only those not fresh. */
export async function build({ parts = PARTS, ifStale = false, log = console.log } = {}) {
  for (const part of parts) {
    if (!PARTS.includes(part)) throw new Error(`unknown part ${part}: one of ${PARTS.join(', ')}`);
    if (part === 'web') {
      buildWeb(ifStale);
      continue;
    }
    const outDir = outDirOf(part);
    if (ifStale && isFresh(part, outDir)) continue;
    const built = await buildBundle(part, outDir);
    log(`${part} built in ${(built.ms / 1000).toFixed(1)} s: ${path.relative(ROOT, built.dir)} from ${built.sources} sources and ${built.packages} packages`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const parts = args.filter((a) => !a.startsWith('--'));
  try {
    await build({ parts: parts.length ? parts : PARTS, ifStale: args.includes('--if-stale') });
  } catch (err) {
    console.error(`build: ${err?.message ?? err}`);
    process.exit(1);
  }
}
