import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ServeProcess } from '../helpers/comanda-process.ts';
import { ApiClient } from '../helpers/server.ts';

// bin/comanda runs dist/hub/comanda.mjs (bin/build-hub.mjs) when it was made from the sources
// on disk. These tests build into folders of their own (COMANDA_BUILD_DIR), never dist/hub,
// which every other test's processes are running.
const run = promisify(execFile);
const ROOT = path.resolve('.');
const launch = { COMANDA_DEBUG_LAUNCH: '1', LOG_LEVEL: 'warn', MDNS: 'off' };
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

const comanda = (env: Record<string, string>, ...args: string[]) => run(process.execPath, [BIN, ...args], { env: { ...process.env, ...launch, ...env } });
const launched = (stderr: string) => /comanda: running (.+) \((fresh build|rebuilt|source)\)/.exec(stderr)?.slice(1);

describe('the hub built as one JavaScript file', { timeout: 180_000 }, () => {
  it('bin/comanda serves from the fresh bundle: /health, the back office and the version answer as from the sources', async () => {
    const hub = await ServeProcess.start(['--data-dir', dataDir()], { env: launch });
    try {
      expect(hub.log.map(launched).find(Boolean)).toEqual([path.join(ROOT, 'dist/hub/comanda.mjs'), 'fresh build']);
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
    const second = await ServeProcess.start(['--data-dir', dir], { env: launch });
    try {
      const system = await new ApiClient(second.url, JSON.parse(stdout).keys.secret).get('/v1/system/health');
      expect(system.body.version).toBe(JSON.parse(fs.readFileSync('package.json', 'utf8')).version);
    } finally {
      await second.stop();
    }
  });

  it('a bundle made from other sources, settings or package versions is rebuilt before it could run', async () => {
    const rel = buildDir('stale');
    const out = path.join(ROOT, rel);
    const env = { COMANDA_BUILD_DIR: rel };
    // nothing there yet: built, then run
    const first = await comanda(env, 'help');
    expect(launched(first.stderr)).toEqual([path.join(out, 'comanda.mjs'), 'rebuilt']);
    expect(first.stdout).toContain('comanda serve');
    expect(launched((await comanda(env, 'help')).stderr)?.[1]).toBe('fresh build');

    const real = JSON.parse(fs.readFileSync(path.join(out, 'stamp.json'), 'utf8'));
    const [source] = Object.keys(real.sources);
    const [pkg] = Object.keys(real.packages);
    const others = {
      'a source edited since': { ...real, sources: { ...real.sources, [source]: '0'.repeat(64) } },
      'another version of a package': { ...real, packages: { ...real.packages, [pkg]: '0.0.0-other' } },
      'other build settings': { ...real, settings: '0'.repeat(64) },
      'a source gone': { ...real, sources: { ...real.sources, 'server/gone.ts': '0'.repeat(64) } },
    };
    for (const [what, stamp] of Object.entries(others)) {
      // a bundle that would say so if it ran, stamped as made from something else
      fs.writeFileSync(path.join(out, 'comanda.mjs'), "process.stdout.write('STALE BUNDLE RAN'); process.exit(9);\n");
      fs.writeFileSync(path.join(out, 'stamp.json'), JSON.stringify(stamp));
      const r = await comanda(env, 'help');
      expect(r.stdout, what).not.toContain('STALE');
      expect(r.stdout, what).toContain('comanda serve');
      expect(launched(r.stderr), what).toEqual([path.join(out, 'comanda.mjs'), 'rebuilt']);
      expect(JSON.parse(fs.readFileSync(path.join(out, 'stamp.json'), 'utf8')).sources, what).toEqual(real.sources);
    }
    // `--if-stale` (npm install, npm test) leaves a fresh one alone
    const again = await run(process.execPath, ['bin/build-hub.mjs', '--if-stale'], { env: { ...process.env, ...env } });
    expect(again.stdout).toBe('');
  });

  it('where no bundle can be made it runs the sources through tsx, and says why', async () => {
    // a file where the build folder should be: nothing can be written there
    const rel = buildDir('blocked');
    fs.mkdirSync(path.dirname(path.join(ROOT, rel)), { recursive: true });
    fs.writeFileSync(path.join(ROOT, rel), 'not a folder');
    const hub = await ServeProcess.start(['--data-dir', dataDir()], { env: { ...launch, COMANDA_BUILD_DIR: rel } });
    try {
      expect(hub.log.some((l) => l.startsWith(`comanda: running the TypeScript sources (no fresh build in ${path.join(ROOT, rel)}`))).toBe(true);
      expect(hub.log.map(launched).find(Boolean)).toEqual([path.join(ROOT, 'server/cli/main.ts'), 'source']);
      expect((await fetch(`${hub.url}/health`)).status).toBe(200);
    } finally {
      await hub.stop();
    }
    // a build folder anywhere but two levels below the root is refused (files next to the
    // sources would be looked for in the wrong place), also by the build script
    const outside = await comanda({ COMANDA_BUILD_DIR: os.tmpdir() }, 'help');
    expect(outside.stderr).toContain('must be two levels below');
    expect(outside.stdout).toContain('comanda serve');
    await expect(run(process.execPath, ['bin/build-hub.mjs'], { env: { ...process.env, COMANDA_BUILD_DIR: 'dist' } })).rejects.toThrow(/must be two levels below/);
  });
});
