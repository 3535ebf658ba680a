import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { isFresh } from '../../bin/build.mjs';
import { BIN, ServeProcess } from '../helpers/comanda-process.ts';
import { ApiClient } from '../helpers/server.ts';

// One build (bin/build.mjs), and bin/comanda runs only what it built: dist/hub/comanda.mjs.
// These tests build into folders of their own (COMANDA_BUILD_DIR), never dist/hub, which
// every other test's processes are running.
const run = promisify(execFile);
const ROOT = path.resolve('.');
const quiet = { LOG_LEVEL: 'warn', MDNS: 'off' };
const made: string[] = [];
const buildDir = (name: string) => {
  const rel = `dist/hub-test-${name}-${process.pid}`;
  made.push(path.join(ROOT, rel));
  return rel;
};
const dataDirs: string[] = [];
const dataDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-hub-build-'));
  dataDirs.push(d);
  return d;
};
afterAll(() => [...made, ...dataDirs].forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const comanda = (env: Record<string, string>, ...args: string[]) => run(process.execPath, [BIN, ...args], { env: { ...process.env, ...quiet, ...env } });
const build = (env: Record<string, string>, ...args: string[]) => run(process.execPath, ['bin/build.mjs', ...args], { env: { ...process.env, ...env } });

// 90 s: a `comanda serve` started twice and one whole build of the hub, on a shared 2-core box
describe('one build, run only built output', { timeout: 90_000 }, () => {
  it('bin/comanda serves from the bundle: /health, the back office and the version answer as from the sources', async () => {
    const hub = await ServeProcess.start(['--data-dir', dataDir()], { env: quiet });
    try {
      const health = await fetch(`${hub.url}/health`);
      expect(await health.json()).toEqual({ status: 'ok', role: 'hub', dialect: 'sqlite' });
      // files found next to the sources (the back office, package.json) are found from the bundle
      const page = await fetch(`${hub.url}/app/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toBe(fs.readFileSync('app/web/dist/index.html', 'utf8'));
    } finally {
      await hub.stop();
    }
    const dir = dataDir();
    const { stdout } = await comanda({}, 'init', '--data-dir', dir, '--name', 'Bundle', '--slug', 'bundle', '--json');
    const second = await ServeProcess.start(['--data-dir', dir], { env: quiet });
    try {
      const system = await new ApiClient(second.url, JSON.parse(stdout).keys.secret).get('/v1/system/health');
      expect(system.body.version).toBe(JSON.parse(fs.readFileSync('package.json', 'utf8')).version);
    } finally {
      await second.stop();
    }
  });

  it('bin/comanda never checks or compiles: it runs the build there is, and without one says how to make it', async () => {
    // a "bundle" stamped as made from nothing on disk: it runs as it is
    const rel = buildDir('as-is');
    fs.mkdirSync(path.join(ROOT, rel), { recursive: true });
    fs.writeFileSync(path.join(ROOT, rel, 'comanda.mjs'), "process.stdout.write('THE BUILD RAN ' + process.argv.slice(2).join(' '));\n");
    const r = await comanda({ COMANDA_BUILD_DIR: rel }, 'help');
    expect(r.stdout).toBe('THE BUILD RAN help');
    expect(fs.readdirSync(path.join(ROOT, rel))).toEqual(['comanda.mjs']);

    // no build: a clear message, exit 1, and nothing made or run from the sources
    const empty = buildDir('none');
    fs.mkdirSync(path.join(ROOT, empty), { recursive: true });
    const missing = await comanda({ COMANDA_BUILD_DIR: empty }, 'help').then(
      () => null,
      (err) => err,
    );
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain(`comanda: no build at ${path.join(ROOT, empty, 'comanda.mjs')}; run \`npm run build\``);
    expect(fs.readdirSync(path.join(ROOT, empty))).toEqual([]);
  });

  it('the build (npm install, npm start, the tests) remakes a part made from other sources, settings or package versions, and leaves a fresh one alone', async () => {
    // the global setup's build (dist/hub) copied: the one build of the run, not made again here
    const rel = buildDir('stale');
    const out = path.join(ROOT, rel);
    const env = { COMANDA_BUILD_DIR: rel };
    fs.cpSync(path.join(ROOT, 'dist/hub'), out, { recursive: true });
    expect((await build(env, '--if-stale', 'hub')).stdout).toBe('');
    expect(isFresh('hub', out)).toBe(true);

    const real = JSON.parse(fs.readFileSync(path.join(out, 'stamp.json'), 'utf8'));
    const [source] = Object.keys(real.sources);
    const [pkg] = Object.keys(real.packages);
    const others = {
      'a source edited since': { ...real, sources: { ...real.sources, [source]: '0'.repeat(64) } },
      'another version of a package': { ...real, packages: { ...real.packages, [pkg]: '0.0.0-other' } },
      'other build settings': { ...real, settings: '0'.repeat(64) },
    };
    // each is stale by the check --if-stale makes; one is then remade for real (each remake is a
    // whole esbuild of the hub: once shows it)
    for (const [what, stamp] of Object.entries(others)) {
      fs.writeFileSync(path.join(out, 'stamp.json'), JSON.stringify(stamp));
      expect(isFresh('hub', out), what).toBe(false);
    }
    fs.writeFileSync(path.join(out, 'comanda.mjs'), "process.stdout.write('STALE BUNDLE RAN');\n");
    expect((await build(env, '--if-stale', 'hub')).stdout).toMatch(/^hub built in /);
    const r = await comanda(env, 'help');
    expect(r.stdout).not.toContain('STALE');
    expect(r.stdout).toContain('comanda serve');
    expect(JSON.parse(fs.readFileSync(path.join(out, 'stamp.json'), 'utf8')).sources).toEqual(real.sources);
    // a build folder anywhere but two levels below the root is refused (files next to the
    // sources would be looked for in the wrong place)
    await expect(build({ COMANDA_BUILD_DIR: 'dist' }, 'hub')).rejects.toThrow(/must be two levels below/);
  });
});
