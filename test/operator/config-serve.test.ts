import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ServeProcess } from '../helpers/comanda-process.ts';

// The two settings issue 46 saw refused by a real start ("unknown key", "guestRateLimit: Invalid
// input"), each set alone the way the operator's table documents them.
const run = promisify(execFile);
const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-config-serve-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const CASES = [
  { name: 'WEBHOOKS_SANDBOX_PRIVATE_TARGETS=true', env: { WEBHOOKS_SANDBOX_PRIVATE_TARGETS: 'true' }, effect: { webhooks: { sandboxPrivateTargets: true } } },
  { name: 'GUEST_RATE_LIMIT_PER_MINUTE_PER_IP=120', env: { GUEST_RATE_LIMIT_PER_MINUTE_PER_IP: '120' }, effect: { guestRateLimit: { perMinutePerIp: 120, perMinutePerRestaurant: 600 } } },
];

describe('comanda serve takes each documented setting alone', () => {
  it.each(CASES)('$name', async ({ env, effect }) => {
    const dataDir = tmp();
    const hub = await ServeProcess.start(['--data-dir', dataDir], { env: { ...env, MDNS: 'off' } });
    try {
      const key = hub.ready.first_run.keys.secret as string;
      const health = await fetch(`${hub.url}/v1/system/health`, { headers: { 'x-api-key': key } });
      expect(health.status).toBe(200);
    } finally {
      await hub.stop('SIGTERM');
    }
    // and it is the value the hub ran with, as `config check` reports it from the same loading
    const { stdout } = await run(process.execPath, [BIN, 'config', 'check', '--data-dir', dataDir, '--json'], { env: { ...process.env, ...env } });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toMatchObject(effect);
  });
});
