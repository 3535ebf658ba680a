import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/operator/load-config.ts';
import { maskedConfig, maskSecret } from '../../server/operator/mask.ts';

const dirs: string[] = [];
function dataDir(file?: unknown): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-config-'));
  dirs.push(d);
  if (file !== undefined) fs.writeFileSync(path.join(d, 'comanda.json'), typeof file === 'string' ? file : JSON.stringify(file));
  return d;
}
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const refused = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('was not refused');
};

describe('operator configuration', () => {
  it('without a file or environment: a hub on 0.0.0.0:8080, backups on, publicUrl from the given default', () => {
    const d = dataDir();
    const c = loadConfig({ dataDir: d, env: {}, defaultPublicUrl: (port) => `http://192.168.1.20:${port}` });
    expect(c.server.role).toBe('hub');
    expect(c.host).toBe('0.0.0.0');
    expect(c.port).toBe(8080);
    expect(c.server.publicUrl).toBe('http://192.168.1.20:8080');
    expect(c.publicUrlDefaulted).toBe(true);
    expect(c.databaseUrl).toBeNull();
    expect(c.server.dataDir).toBe(d);
    expect(c.backups).toEqual({ enabled: true, dir: path.join(d, 'backups'), keepDays: 14, schedule: '0 30 4 * * *' });
    expect(c.mdns).toBe(true);
    expect(c.sources).toEqual({ file: null, env: [] });
  });

  it('reads comanda.json; the environment overrides the file and flags override both', () => {
    const d = dataDir({
      port: 9000,
      publicUrl: 'http://hub.local:9000/',
      rateLimit: { perSecond: 50, burst: 80 },
      mail: { smtp: { host: 'smtp.example.com', port: 587, user: 'u', pass: 'file-secret-password' }, from: 'Trattoria <a@b.c>' },
      backups: { dir: '/mnt/usb/comanda', keepDays: 30 },
      trustedProxies: ['10.0.0.1'],
    });
    const c = loadConfig({
      dataDir: d,
      env: { PORT: '9100', SMTP_PASS: 'env-secret-password', TRUSTED_PROXIES: '10.0.0.1, ::1', GUEST_RATE_LIMIT: 'off', WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'false' },
      flags: { port: 9200 },
    });
    expect(c.port).toBe(9200);
    expect(c.server.publicUrl).toBe('http://hub.local:9000');
    expect(c.server.rateLimit).toEqual({ perSecond: 50, burst: 80 });
    expect(c.server.guestRateLimit).toBe(false);
    expect(c.server.mail.smtp).toEqual({ host: 'smtp.example.com', port: 587, user: 'u', pass: 'env-secret-password' });
    expect(c.server.mail.from).toBe('Trattoria <a@b.c>');
    expect(c.server.mail.contactTo).toBe('hello@comanda.local');
    expect(c.server.trustedProxies).toEqual(['10.0.0.1', '::1']);
    expect(c.server.webhooks).toEqual({ allowPrivateTargets: false });
    expect(c.backups).toMatchObject({ dir: '/mnt/usb/comanda', keepDays: 30 });
    expect(c.sources.file).toBe(path.join(d, 'comanda.json'));
    expect(c.sources.env.sort()).toEqual(['GUEST_RATE_LIMIT', 'PORT', 'SMTP_PASS', 'TRUSTED_PROXIES', 'WEBHOOKS_ALLOW_PRIVATE_TARGETS']);
  });

  it('the cloud from the environment alone (12-factor)', () => {
    const c = loadConfig({
      dataDir: dataDir(),
      env: {
        DATABASE_URL: 'postgres://comanda:pw@db:5432/comanda',
        PORT: '3000',
        PUBLIC_URL: 'https://api.comanda.example',
        SMTP_HOST: 'smtp.example.com',
        SMTP_PORT: '465',
        SMTP_SECURE: 'true',
        SMS_URL: 'https://sms.example/send',
        SMS_TOKEN: 'tok-123456789',
        RATE_LIMIT_PER_SECOND: '20',
        RATE_LIMIT_BURST: '40',
      },
    });
    expect(c.server.role).toBe('cloud');
    expect(c.databaseUrl).toBe('postgres://comanda:pw@db:5432/comanda');
    expect(c.server.dataDir).toBeNull();
    expect(c.backups.enabled).toBe(false);
    expect(c.mdns).toBe(false);
    expect(c.server.mail.smtp).toEqual({ host: 'smtp.example.com', port: 465, secure: true });
    expect(c.server.sms).toEqual({ url: 'https://sms.example/send', token: 'tok-123456789' });
    expect(c.server.rateLimit).toEqual({ perSecond: 20, burst: 40 });
  });

  it('refuses an unknown key, naming it and the file', () => {
    const d = dataDir({ rateLimits: { perSecond: 1 }, mail: { smtp: { host: 'h', port: 25, passwd: 'x' } } });
    const msg = refused(() => loadConfig({ dataDir: d, env: {} }));
    expect(msg).toContain(`${path.join(d, 'comanda.json')}: unknown key 'rateLimits'`);
    expect(msg).toContain("unknown key 'mail.smtp.passwd'");
  });

  it('refuses a bad value, naming the key', () => {
    const cases: [unknown, string][] = [
      [{ port: 70000 }, 'port:'],
      [{ publicUrl: 'ftp://hub' }, 'publicUrl: must be an http(s) URL'],
      [{ rateLimit: { perSecond: -1, burst: 5 } }, 'rateLimit.perSecond:'],
      [{ trustedProxies: ['not-an-ip'] }, 'trustedProxies.0: must be an IP address'],
      [{ backups: { schedule: 'every night' } }, 'backups.schedule: must be a cron expression'],
      [{ mail: { contactTo: 'nobody' } }, 'mail.contactTo:'],
      [{ role: 'edge' }, 'role:'],
    ];
    for (const [file, expected] of cases) expect(refused(() => loadConfig({ dataDir: dataDir(file), env: {} }))).toContain(expected);
    expect(refused(() => loadConfig({ dataDir: dataDir('{"port": 80,'), env: {} }))).toMatch(/not valid JSON/);
    expect(refused(() => loadConfig({ dataDir: dataDir('[1]'), env: {} }))).toMatch(/must hold a JSON object/);
  });

  it('refuses a bad environment value, naming the variable', () => {
    const d = dataDir();
    expect(refused(() => loadConfig({ dataDir: d, env: { PORT: 'eighty' } }))).toMatch(/^PORT: port:/);
    expect(refused(() => loadConfig({ dataDir: d, env: { SMTP_PORT: '25x', SMTP_HOST: 'h' } }))).toMatch(/^SMTP_PORT: mail\.smtp\.port:/);
    expect(refused(() => loadConfig({ dataDir: d, env: { SMTP_SECURE: 'maybe', SMTP_HOST: 'h', SMTP_PORT: '25' } }))).toMatch(/^SMTP_SECURE: mail\.smtp\.secure:/);
    expect(refused(() => loadConfig({ dataDir: d, env: { DATABASE_URL: 'mysql://x' } }))).toMatch(/^DATABASE_URL: databaseUrl: must be a postgres/);
    expect(refused(() => loadConfig({ dataDir: d, env: { BACKUP_KEEP_DAYS: '0' } }))).toMatch(/^BACKUP_KEEP_DAYS: backups\.keepDays:/);
    expect(refused(() => loadConfig({ dataDir: d, env: { TRUSTED_PROXIES: '1.2.3.4,proxy' } }))).toMatch(/^TRUSTED_PROXIES: trustedProxies\.1:/);
  });

  it('masks every secret of the effective config', () => {
    const c = loadConfig({
      dataDir: dataDir({ mail: { smtp: { host: 'h', port: 25, user: 'me', pass: 'a-long-smtp-password' } }, sms: { url: 'https://sms.example', token: 'short' } }),
      env: { DATABASE_URL: 'postgres://app:db-password@db/comanda' },
    });
    const text = JSON.stringify(maskedConfig(c));
    for (const secret of ['a-long-smtp-password', 'short', 'db-password']) expect(text).not.toContain(secret);
    expect(maskedConfig(c).mail.smtp?.pass).toBe('••••rd');
    expect(maskedConfig(c).sms?.token).toBe('••••');
    expect(maskedConfig(c).databaseUrl).toBe('postgres://app:****@db/comanda');
    expect(maskSecret('')).toBeNull();
  });

  it('comanda config check prints the masked config, or refuses naming the key (exit 2)', { timeout: 120_000 }, async () => { // 120 s: each command a fresh Node process
    const run = promisify(execFile);
    const d = dataDir({ port: 8181, mail: { smtp: { host: 'smtp.example.com', port: 587, pass: 'do-not-print-this' } } });
    const { stdout } = await run(process.execPath, ['bin/comanda', 'config', 'check', '--data-dir', d, '--json'], { env: { ...process.env, LOG_LEVEL: 'silent', PORT: '' } });
    const printed = JSON.parse(stdout);
    expect(printed.port).toBe(8181);
    expect(printed.mail.smtp).toMatchObject({ host: 'smtp.example.com', pass: '••••is' });
    expect(stdout).not.toContain('do-not-print-this');
    expect(printed.publicUrl).not.toContain('0.0.0.0');

    fs.writeFileSync(path.join(d, 'comanda.json'), JSON.stringify({ port: 8181, colour: 'red' }));
    const failed = await run(process.execPath, ['bin/comanda', 'config', 'check', '--data-dir', d], { env: { ...process.env, LOG_LEVEL: 'silent' } }).then(
      () => null,
      (err) => err,
    );
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain("unknown key 'colour'");
  });
});
