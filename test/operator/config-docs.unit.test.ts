import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFIG_LEAVES, ConfigFields, ENV_VARS, OperatorConfigSchema } from '../../server/operator/config-schema.ts';
import { loadConfig } from '../../server/operator/load-config.ts';

// The operator's table (docs/operators/configuration.md) against what the server takes: every
// key and variable it names is accepted, and every variable the server reads is in it.
const doc = fs.readFileSync('docs/operators/configuration.md', 'utf8');
const rows = doc
  .split('\n')
  .filter((l) => l.startsWith('| ') && !l.startsWith('| key') && !l.startsWith('|---'))
  .map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));
const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

/** The keys of a row's first cell (what is in parentheses are values); `.x` after `a.b` is `a.x`. */
const keysOf = (cell: string) => {
  let prefix = '';
  return ticked(cell.replace(/\([^)]*\)/g, ''))
    .filter((t) => /^\.?[a-z][A-Za-z.]*$/.test(t))
    .map((t) => {
      if (t.startsWith('.')) return prefix + t.slice(1);
      prefix = t.includes('.') ? t.slice(0, t.lastIndexOf('.') + 1) : `${t}.`;
      return t;
    });
};
const documentedKeys = rows.flatMap((r) => keysOf(r[0]));
const documentedVars = rows.flatMap((r) => ticked(r[1]).map((t) => t.split('=')[0]).filter((t) => /^[A-Z][A-Z0-9_]+$/.test(t)));

/** Whether the schema has a place for this dotted key (through optional, nullable and unions). */
function hasKey(schema: any, parts: string[]): boolean {
  const def = schema?.def ?? schema?._zod?.def;
  if (!parts.length) return true;
  if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default') return hasKey(def.innerType, parts);
  if (def.type === 'union') return def.options.some((o: any) => hasKey(o, parts));
  if (def.type === 'object') return parts[0] in def.shape && hasKey(def.shape[parts[0]], parts.slice(1));
  return false;
}

// a value each kind of variable takes; some keys need a companion (an SMTP server needs its port)
const SAMPLE: Record<string, string> = { COMANDA_ROLE: 'hub', PUBLIC_URL: 'http://hub.local:8080', DATABASE_URL: 'postgres://u@db.example.com/comanda', TRUSTED_PROXIES: '10.0.0.1', ALLOWED_HOSTS: 'hub.example.com', CONTACT_TO: 'owner@example.com', SMS_URL: 'https://sms.example.com/send', BACKUP_SCHEDULE: '0 0 3 * * *', RATE_LIMIT: 'off', GUEST_RATE_LIMIT: 'off' };
const BY_KIND = { string: 'some-value', number: '120', bool: 'true', list: 'a,b', onOff: 'off' } as const;
const COMPANIONS: Record<string, Record<string, string>> = { 'mail.smtp': { SMTP_HOST: 'mail.example.com', SMTP_PORT: '587' }, sms: { SMS_URL: 'https://sms.example.com/send' } };
const companionsOf = (p: string) => Object.entries(COMPANIONS).find(([prefix]) => p.startsWith(`${prefix}.`))?.[1] ?? {};

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const emptyDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-config-docs-'));
  dirs.push(d);
  return d;
};

describe('the configuration table', () => {
  it('names keys and variables at all (the table was read)', () => {
    expect(documentedKeys).toContain('webhooks.sandboxPrivateTargets');
    expect(documentedVars).toContain('GUEST_RATE_LIMIT_PER_MINUTE_PER_RESTAURANT');
  });

  it('every documented key has its place in the schema comanda.json is checked with', () => {
    expect(documentedKeys.filter((k) => !hasKey(OperatorConfigSchema, k.split('.')))).toEqual([]);
  });

  it('every key of the schema is documented: by its own name, or in the row of the key holding it', () => {
    const paths = (schema: any, at: string): string[] => {
      const def = schema?.def ?? schema?._zod?.def;
      if (def.type === 'optional' || def.type === 'nullable') return paths(def.innerType, at);
      if (def.type === 'union') return [at, ...def.options.flatMap((o: any) => paths(o, at).filter((p) => p !== at))];
      if (def.type === 'object') return Object.entries(def.shape).flatMap(([k, v]) => paths(v, at ? `${at}.${k}` : k));
      return [at];
    };
    const undocumented = [...new Set(paths(ConfigFields, ''))].filter((p) => {
      if (documentedKeys.includes(p)) return false;
      const field = p.split('.').at(-1)!;
      return !rows.some((r) => keysOf(r[0]).some((k) => p.startsWith(`${k}.`)) && new RegExp(`\\b${field}\\b`).test(r[0]));
    });
    expect(undocumented).toEqual([]);
    // every secret is masked by the one list the schema gives (mask.ts), and these are them
    expect(CONFIG_LEAVES.filter((l) => l.meta.secret).map((l) => l.path).sort()).toEqual(['databaseUrl', 'mail.smtp.pass', 'sms.token']);
  });

  it('every documented variable is read by the server, and every one it reads is documented', () => {
    expect(documentedVars.filter((v) => v !== 'COMANDA_SECRET_KEY' && v !== 'COMANDA_CONFIG' && !(v in ENV_VARS))).toEqual([]);
    expect(Object.keys(ENV_VARS).filter((v) => !documentedVars.includes(v))).toEqual([]);
  });

  it('every variable is accepted set alone (with only what it cannot do without)', () => {
    const refused: string[] = [];
    for (const [name, { path: p, kind }] of Object.entries(ENV_VARS)) {
      const env = { ...companionsOf(p), [name]: SAMPLE[name] ?? BY_KIND[kind] };
      try {
        loadConfig({ dataDir: emptyDir(), env });
      } catch (err) {
        refused.push(`${name}: ${(err as Error).message}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it('a limit set alone keeps the other’s default; the sandbox may reach private targets when told', () => {
    const c = loadConfig({ dataDir: emptyDir(), env: { GUEST_RATE_LIMIT_PER_MINUTE_PER_IP: '120', RATE_LIMIT_BURST: '50', WEBHOOKS_SANDBOX_PRIVATE_TARGETS: 'true' } });
    expect(c.server.guestRateLimit).toEqual({ perMinutePerIp: 120, perMinutePerRestaurant: 600 });
    expect(c.server.rateLimit).toEqual({ perSecond: 100, burst: 50 });
    expect(c.server.webhooks.sandboxPrivateTargets).toBe(true);
  });
});
