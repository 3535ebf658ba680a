import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { promisify } from 'node:util';
import asar from '@electron/asar';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterAll, describe, expect, it } from 'vitest';
import { builderArgs } from '../../bin/desktop-dist.mjs';
import { freePort } from '../helpers/free-port.ts';

// The desktop package as a venue's PC gets it, as far as it can be made here: `npm run
// desktop:dist` (electron-builder, --dir) with a stand-in Electron distribution (no Electron
// can be downloaded here: a file holding the fuse wire, and a version file), no native rebuild
// (COMANDA_SKIP_NATIVE_REBUILD=1: no Electron headers here either; the package keeps the
// project's Node build of better-sqlite3, which is what the hub below runs on). Then
// app.asar is taken apart and the hub started from it under plain Node.
const run = promisify(execFile);
const ROOT = path.resolve('.');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-package-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const BUILD_TOOLS = ['tsx', 'esbuild', '@esbuild', 'typescript', 'vite'];
const nativeModule = path.join(ROOT, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
const sha = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('the packaged desktop app', { timeout: 240_000 }, () => { // 240 s: electron-builder packs the app, then its hub starts from the asar
  it('packs without an update feed, holds built JavaScript only, and its hub serves the back office, screens and guest pages', async () => {
    // Electron's binary as far as electron-builder looks at it: the fuses' sentinel and wire
    // (version 1, eight fuses, as Electron ships them)
    const electronDist = path.join(work, 'electron-dist');
    fs.mkdirSync(electronDist);
    fs.writeFileSync(path.join(electronDist, 'electron'), Buffer.concat([Buffer.from('#!/bin/sh\nexit 1\n'), Buffer.from(SENTINEL), Buffer.from([1, 8]), Buffer.from('10110001')]), { mode: 0o755 });
    fs.writeFileSync(path.join(electronDist, 'version'), '39.8.10');
    const out = path.join(work, 'installers');
    const before = sha(nativeModule);

    const env: NodeJS.ProcessEnv = { ...process.env, COMANDA_SKIP_NATIVE_REBUILD: '1' };
    delete env.COMANDA_UPDATE_FEED_URL;
    await run('npm', ['run', 'desktop:dist', '--', '--linux', '--dir', `-c.electronDist=${electronDist}`, `-c.directories.output=${out}`], { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 });
    const unpacked = path.join(out, 'linux-unpacked');
    const resources = path.join(unpacked, 'resources');
    // no feed, no app-update.yml: the app then runs with updates off
    expect(fs.existsSync(path.join(resources, 'app-update.yml'))).toBe(false);

    // the fuses flipped in the binary: no ELECTRON_RUN_AS_NODE, no NODE_OPTIONS or --inspect,
    // the app only from its asar, whose integrity is checked
    const wire = (await getCurrentFuseWire(path.join(unpacked, 'comanda'))) as Record<number, number>;
    // '0' off, '1' on
    const fuse = (f: FuseV1Options) => String.fromCharCode(wire[f]);
    expect(fuse(FuseV1Options.RunAsNode)).toBe('0');
    expect(fuse(FuseV1Options.EnableNodeOptionsEnvironmentVariable)).toBe('0');
    expect(fuse(FuseV1Options.EnableNodeCliInspectArguments)).toBe('0');
    expect(fuse(FuseV1Options.OnlyLoadAppFromAsar)).toBe('1');
    expect(fuse(FuseV1Options.EnableEmbeddedAsarIntegrityValidation)).toBe('1');

    // app.asar with its unpacked files, outside the checkout (nothing resolves from its node_modules)
    const app = path.join(work, 'app');
    asar.extractAll(path.join(resources, 'app.asar'), app);
    const pkg = JSON.parse(fs.readFileSync(path.join(app, 'package.json'), 'utf8'));
    expect(pkg.main).toBe('dist/electron/main.mjs');
    // the app's own files: built JavaScript, the pages, icons; no TypeScript and no sources
    const own = (dir: string): string[] =>
      fs.readdirSync(path.join(app, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? (dir === '' && e.name === 'node_modules' ? [] : own(path.join(dir, e.name))) : [path.join(dir, e.name)]));
    const files = own('');
    expect(files.filter((f) => /\.[cm]?tsx?$/.test(f))).toEqual([]);
    expect(files.filter((f) => !f.startsWith('app/web/dist/')).sort()).toEqual([
      ...fs.readdirSync(path.join(ROOT, 'app/desktop/icons')).filter((f) => f.endsWith('.png')).map((f) => `app/desktop/icons/${f}`),
      'bin/comanda',
      'dist/electron/main.mjs',
      'dist/electron/preload.cjs',
      'dist/electron/stamp.json',
      'dist/hub/comanda.mjs',
      'dist/hub/stamp.json',
      'package.json',
    ].sort());
    for (const page of ['index.html', 'screens.html', 'guest.html']) expect(files).toContain(`app/web/dist/${page}`);
    // better-sqlite3 as it runs, without its C sources and build leftovers
    const sqlite = path.join(app, 'node_modules/better-sqlite3');
    expect(fs.existsSync(path.join(sqlite, 'build/Release/better_sqlite3.node'))).toBe(true);
    for (const leftover of ['deps', 'src', 'build/Release/obj', 'build/Release/obj.target', 'build/Release/test_extension.node']) expect(fs.existsSync(path.join(sqlite, leftover)), leftover).toBe(false);

    // everything the main process, the preload and the hub load: JavaScript (and JSON), no
    // TypeScript, no compiler (esbuild follows the imports through the extracted package)
    const esbuild = await import('esbuild');
    for (const entry of [pkg.main, 'dist/electron/preload.cjs', 'bin/comanda', 'dist/hub/comanda.mjs']) {
      const r = await esbuild.build({ absWorkingDir: app, entryPoints: [path.join(app, entry)], bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', loader: { '': 'js', '.node': 'empty' }, external: ['electron'], logLevel: 'silent' });
      const inputs = Object.keys(r.metafile.inputs);
      expect(inputs.length, entry).toBeGreaterThan(0);
      expect(inputs.filter((i) => !/\.(m?js|cjs|json|node)$/.test(i) && i !== entry), entry).toEqual([]);
      expect(inputs.filter((i) => BUILD_TOOLS.some((t) => i.includes(`node_modules/${t}/`))), entry).toEqual([]);
    }
    // and nothing could compile if it tried
    for (const tool of BUILD_TOOLS) fs.rmSync(path.join(app, 'node_modules', tool), { recursive: true, force: true });

    const port = await freePort();
    const dataDir = path.join(work, 'data');
    const hub = spawn(process.execPath, [path.join(app, 'bin/comanda'), 'serve', '--data-dir', dataDir, '--host', '127.0.0.1', '--port', String(port), '--json'], {
      cwd: work,
      env: { PATH: process.env.PATH, HOME: work, ELECTRON_RUN_AS_NODE: '1', LOG_LEVEL: 'warn', MDNS: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    hub.stderr.on('data', (c) => (stderr += c));
    try {
      const ready = await new Promise<any>((resolve, reject) => {
        hub.once('exit', (code) => reject(new Error(`the packaged hub exited (${code}): ${stderr}`)));
        readline.createInterface({ input: hub.stdout }).on('line', (line) => {
          try {
            const info = JSON.parse(line);
            if (info.url) resolve(info);
          } catch {
            // not the ready line
          }
        });
      });
      const base = `http://127.0.0.1:${port}`;
      expect(ready.url).toBe(base);
      for (const p of ['/health', '/app/', '/screens/pair', '/r/my-restaurant/waitlist']) {
        const res = await fetch(base + p);
        expect(res.status, p).toBe(200);
        if (p !== '/health') expect(await res.text(), p).toContain('<!doctype html>');
      }
    } finally {
      if (hub.exitCode === null) {
        const exited = new Promise((r) => hub.once('exit', r));
        hub.kill('SIGTERM');
        await exited;
      }
    }

    // the checkout's own better-sqlite3 was not rebuilt by packaging: same file, loads in Node
    expect(sha(nativeModule)).toBe(before);
    const { stdout } = await run(process.execPath, ['-e', "const D = require('better-sqlite3'); console.log(new D(':memory:').prepare('select 1 as x').get().x)"], { cwd: ROOT });
    expect(stdout.trim()).toBe('1');
  });

  it('an update feed goes into the build only when one is configured; nothing is ever published from here', () => {
    expect(builderArgs(['--dir'], {})).toEqual(['--config', 'electron-builder.yml', '--dir', '--publish', 'never']);
    expect(builderArgs([], { COMANDA_UPDATE_FEED_URL: 'https://updates.example.test/comanda' })).toEqual([
      '--config',
      'electron-builder.yml',
      '-c.publish.provider=generic',
      '-c.publish.url=https://updates.example.test/comanda',
      '-c.publish.channel=latest',
      '--publish',
      'never',
    ]);
  });
});
