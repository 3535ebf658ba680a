import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger, readable } from '../../server/logger.ts';
import { BIN } from '../helpers/comanda-process.ts';
import { freePort } from '../helpers/free-port.ts';
import { until } from '../helpers/until.ts';

describe('log lines', () => {
  it('a person at a terminal reads text; a pipe and the log file get JSON', () => {
    const shown: string[] = [];
    const filed: string[] = [];
    const log = createLogger({ format: 'text', console: { write: (l) => shown.push(l) }, file: { write: (l) => filed.push(l) } });
    log.warn({ printer: 'Grill', err: new Error('paper out') }, 'printer needs attention');
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatch(/^\d\d:\d\d:\d\d WARN  printer needs attention  printer=Grill error="paper out"\n$/);
    expect(JSON.parse(filed[0]!)).toMatchObject({ level: 40, msg: 'printer needs attention', printer: 'Grill' });

    const piped: string[] = [];
    createLogger({ format: 'json', console: { write: (l) => piped.push(l) } }).info({ n: 1 }, 'hello');
    expect(JSON.parse(piped[0]!)).toMatchObject({ msg: 'hello', n: 1 });
    expect(readable('not json')).toBe('not json');
  });

  it('`comanda serve` at a terminal prints readable lines, and no routine job runs at info', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-log-'));
    const port = await freePort();
    // LOG_FORMAT=text stands for a terminal (a test has no TTY); LOG_LEVEL=info as `npm start`
    const child = spawn(process.execPath, [BIN, 'serve', '--data-dir', dir, '--port', String(port), '--host', '127.0.0.1'], {
      env: { ...process.env, LOG_LEVEL: 'info', LOG_FORMAT: 'text' },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await until('comanda is serving', () => out.includes('comanda is serving'), { timeout: 30_000, diagnose: () => out.slice(-2000) });
      // the scheduler's most frequent jobs run every few seconds: wait for a few of them
      await new Promise((r) => setTimeout(r, 6_000));
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    const lines = out.split('\n').filter(Boolean);
    expect(lines.some((l) => /^\d\d:\d\d:\d\d INFO  comanda is serving/.test(l))).toBe(true);
    expect(lines.filter((l) => l.startsWith('{'))).toEqual([]);
    expect(out).not.toContain('job done');
    expect(out).toContain("set on the back office's setup page");
    expect(out).not.toContain('PATCH /v1/settings');
    // the log file in the data dir keeps JSON for the support bundle
    const file = fs.readFileSync(path.join(dir, 'logs', 'comanda.log'), 'utf8').trim().split('\n');
    expect(JSON.parse(file[0]!)).toHaveProperty('msg');
  }, 60_000);
});
