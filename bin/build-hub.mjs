// node bin/build-hub.mjs [--if-stale]
//
// The hub as one JavaScript file: esbuild bundles what bin/comanda runs (server/, sync/,
// printers/ and their pure-JavaScript dependencies; better-sqlite3 stays a native module)
// into dist/hub/comanda.mjs. A start then loads one file instead of having tsx compile
// ~330 TypeScript sources and Node open ~1,000 module files: that was most of a hub's cold
// start. Made at install (`prepare`) and by `npm test`; bin/comanda checks it at every start
// against the stamp written beside it (what it was made from) and makes it again, or runs
// the sources through tsx, when it is not fresh. Never committed: the sources are the truth.
//
// Plain JavaScript: bin/comanda imports it before anything can compile TypeScript.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ENTRY = path.join(ROOT, 'server/cli/main.ts');
const BUNDLE = 'comanda.mjs';
const STAMP = 'stamp.json';
// what else decides the output: this file (the build options) and the TypeScript settings
const SETTINGS = ['bin/build-hub.mjs', 'tsconfig.json'];
const FORMAT = 1;
// native, optional or never used by the server: loaded from node_modules if at all
const EXTERNAL = ['better-sqlite3', 'pg-native', 'bufferutil', 'utf-8-validate', 'electron'];

/**
 * dist/hub, or COMANDA_BUILD_DIR (relative to the root; tests build elsewhere). It must sit
 * two folders below the root, as every source does: `../../package.json`, `../../app/web/dist`
 * (sources reading files next to them through import.meta.url) and node_modules then resolve
 * from the bundle as they do from the sources.
 */
export function outDirOf(env = process.env) {
  const dir = path.resolve(ROOT, env.COMANDA_BUILD_DIR || 'dist/hub');
  const rel = path.relative(ROOT, dir).split(path.sep);
  if (rel.length !== 2 || rel[0] === '..' || rel.includes('')) throw new Error(`the hub build folder must be two levels below ${ROOT} (like dist/hub), not ${dir}`);
  return dir;
}

const sha = (data) => createHash('sha256').update(data).digest('hex');
const read = (rel) => fs.readFileSync(path.join(ROOT, rel));
const versionOf = (pkgDir) => JSON.parse(fs.readFileSync(path.join(ROOT, pkgDir, 'package.json'), 'utf8')).version;

function settingsHash() {
  return sha(SETTINGS.map((f) => `${f}\0${sha(read(f))}`).join('\n'));
}

/**
 * Whether the bundle in outDir was made from the sources, settings and dependency versions
 * now on disk: every source it holds is read and hashed (~330 files, a few milliseconds).
 */
export function isFresh(outDir = outDirOf()) {
  let stamp;
  try {
    stamp = JSON.parse(fs.readFileSync(path.join(outDir, STAMP), 'utf8'));
  } catch {
    return false;
  }
  if (stamp?.format !== FORMAT || !fs.existsSync(path.join(outDir, BUNDLE))) return false;
  try {
    if (stamp.settings !== settingsHash()) return false;
    for (const [rel, hash] of Object.entries(stamp.sources)) if (sha(read(rel)) !== hash) return false;
    for (const [dir, version] of Object.entries(stamp.packages)) if (versionOf(dir) !== version) return false;
  } catch {
    // a source or package gone
    return false;
  }
  return true;
}

/** Bundles the hub into outDir; the bundle and its stamp replace the old ones whole. */
export async function buildHub(outDir = outDirOf()) {
  const esbuild = await import('esbuild');
  const started = Date.now();
  const sources = {};
  // Hashes each source as esbuild reads it, so the stamp names exactly what went in.
  const stampSources = {
    name: 'stamp-sources',
    setup(b) {
      b.onLoad({ filter: /\.[cm]?ts$/ }, (args) => {
        const rel = path.relative(ROOT, args.path).split(path.sep).join('/');
        if (rel.startsWith('..') || rel.includes('node_modules/')) return undefined;
        const contents = fs.readFileSync(args.path, 'utf8');
        if (/import\.meta\.(url|dirname|filename)/.test(contents) && rel.split('/').length !== 3) {
          throw new Error(`${rel} finds files through import.meta but is not two folders below the root like the bundle; it would look in the wrong place once bundled`);
        }
        sources[rel] = sha(contents);
        return { contents, loader: 'ts' };
      });
    },
  };
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [ENTRY],
    outfile: path.join(outDir, BUNDLE),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    // bundled CommonJS packages require Node's own modules
    banner: { js: "import { createRequire as __comandaRequire } from 'node:module';\nconst require = __comandaRequire(import.meta.url);" },
    sourcemap: 'linked',
    metafile: true,
    write: false,
    logLevel: 'warning',
    plugins: [stampSources],
  });
  const packages = {};
  for (const input of Object.keys(result.metafile.inputs)) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m && !(m[1] in packages)) packages[m[1]] = versionOf(m[1]);
  }
  const stamp = { format: FORMAT, built_at: new Date().toISOString(), settings: settingsHash(), sources, packages };
  fs.mkdirSync(outDir, { recursive: true });
  // Written aside and renamed: a start that reads the folder meanwhile, or another build of
  // the same sources racing this one, finds whole files. The stamp goes last, so a bundle
  // is never stamped before it is in place.
  const tmp = `.tmp-${process.pid}-${Date.now()}`;
  const files = [...result.outputFiles.map((f) => [path.basename(f.path), f.contents]), [STAMP, JSON.stringify(stamp, null, 1)]];
  for (const [name, contents] of files) fs.writeFileSync(path.join(outDir, name + tmp), contents);
  for (const [name] of files) fs.renameSync(path.join(outDir, name + tmp), path.join(outDir, name));
  return { file: path.join(outDir, BUNDLE), ms: Date.now() - started, sources: Object.keys(sources).length, packages: Object.keys(packages).length };
}

/**
 * What bin/comanda runs: the bundle when it is fresh; else the bundle made now; else (no
 * esbuild, a folder it cannot write) the TypeScript sources through tsx. A stale bundle never
 * runs. COMANDA_FROM_SOURCE=1 always runs the sources.
 */
export async function hubEntry(env = process.env) {
  if (env.COMANDA_FROM_SOURCE === '1') return { file: ENTRY, how: 'source', why: 'COMANDA_FROM_SOURCE=1' };
  let outDir;
  try {
    outDir = outDirOf(env);
    if (isFresh(outDir)) return { file: path.join(outDir, BUNDLE), how: 'fresh build' };
    return { file: (await buildHub(outDir)).file, how: 'rebuilt' };
  } catch (err) {
    return { file: ENTRY, how: 'source', why: `no fresh build in ${outDir ?? env.COMANDA_BUILD_DIR ?? 'dist/hub'}: ${err?.message ?? err}` };
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = outDirOf();
  if (process.argv.includes('--if-stale') && isFresh(outDir)) process.exit(0);
  const built = await buildHub(outDir);
  console.log(`hub built in ${(built.ms / 1000).toFixed(1)} s: ${path.relative(ROOT, built.file)} from ${built.sources} sources and ${built.packages} packages`);
}
