import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { DEFAULT_GUEST_RATE_LIMIT, DEFAULT_RATE_LIMIT, defaultConfig, type BackupConfig, type Config } from '../config.ts';
import { ENV_VARS, OperatorConfigSchema, type OperatorConfig } from './config-schema.ts';

export const CONFIG_FILE = 'comanda.json';

/** A value that makes the server refuse to start; the message names the key and where it came from. */
export class ConfigError extends Error {}

/** Everything a process needs to start, after file, environment and flags are merged. */
export interface EffectiveConfig {
  /** what createServer takes */
  server: Config;
  port: number;
  host: string;
  /** null: SQLite in dataDir */
  databaseUrl: string | null;
  dataDir: string;
  backups: BackupConfig;
  mdns: boolean;
  /** the publicUrl was chosen by us (first LAN address), not set by the operator */
  publicUrlDefaulted: boolean;
  /** where values came from, for `config check` */
  sources: { file: string | null; env: string[] };
}

export interface LoadOptions {
  dataDir: string;
  env?: NodeJS.ProcessEnv;
  /** command-line flags win over everything */
  flags?: OperatorConfig;
  /** publicUrl when none is set (the serve command passes the first LAN address) */
  defaultPublicUrl?: (port: number) => string;
}

export function loadConfig(opts: LoadOptions): EffectiveConfig {
  const env = opts.env ?? process.env;
  const file = env.COMANDA_CONFIG || path.join(opts.dataDir, CONFIG_FILE);
  const fromFile = readConfigFile(file);
  const { values: fromEnv, names } = readEnv(env);
  const merged = deepMerge(deepMerge(fromFile ?? {}, fromEnv), stripUndefined(opts.flags ?? {}));
  const parsed = OperatorConfigSchema.safeParse(merged);
  if (!parsed.success) throw new ConfigError(describeIssues(parsed.error, (p) => originOf(p, opts.flags, names, file)));
  const c = parsed.data;

  const role = c.role ?? (c.databaseUrl ? 'cloud' : 'hub');
  const port = c.port ?? 8080;
  const host = c.host ?? '0.0.0.0';
  const publicUrl = c.publicUrl ?? opts.defaultPublicUrl?.(port) ?? `http://127.0.0.1:${port}`;
  const mail = { ...defaultConfig.mail, ...c.mail };
  const backups: BackupConfig = {
    enabled: c.backups?.enabled ?? !c.databaseUrl,
    dir: path.resolve(opts.dataDir, c.backups?.dir ?? defaultConfig.backups.dir),
    keepDays: c.backups?.keepDays ?? defaultConfig.backups.keepDays,
    schedule: c.backups?.schedule ?? defaultConfig.backups.schedule,
  };
  const server: Config = {
    ...defaultConfig,
    role,
    publicUrl: publicUrl.replace(/\/+$/, ''),
    ...(c.bodyLimitBytes !== undefined && { bodyLimitBytes: c.bodyLimitBytes }),
    ...(c.rateLimit !== undefined && { rateLimit: c.rateLimit && { ...DEFAULT_RATE_LIMIT, ...c.rateLimit } }),
    ...(c.guestRateLimit !== undefined && { guestRateLimit: c.guestRateLimit && { ...DEFAULT_GUEST_RATE_LIMIT, ...c.guestRateLimit } }),
    ...(c.trustedProxies !== undefined && { trustedProxies: c.trustedProxies }),
    ...(c.allowedHosts !== undefined && { allowedHosts: c.allowedHosts }),
    ...(c.idempotencyTtlSeconds !== undefined && { idempotencyTtlSeconds: c.idempotencyTtlSeconds }),
    mail,
    sms: c.sms ?? null,
    webhooks: c.webhooks ?? {},
    dataDir: c.databaseUrl ? null : opts.dataDir,
    backups,
  };
  return {
    server,
    port,
    host,
    databaseUrl: c.databaseUrl ?? null,
    dataDir: opts.dataDir,
    backups,
    mdns: c.mdns ?? role === 'hub',
    publicUrlDefaulted: c.publicUrl === undefined,
    sources: { file: fromFile ? file : null, env: Object.keys(names).length ? [...new Set(Object.values(names))] : [] },
  };
}

function readConfigFile(file: string): Record<string, unknown> | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err: any) {
    if (err.code === 'ENOENT') return null;
    throw new ConfigError(`${file}: cannot be read (${err.code ?? err.message})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err: any) {
    throw new ConfigError(`${file}: not valid JSON (${err.message})`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new ConfigError(`${file}: must hold a JSON object`);
  return value as Record<string, unknown>;
}

/** Environment values as the file's shape; `names` maps each path back to its variable. */
function readEnv(env: NodeJS.ProcessEnv): { values: Record<string, unknown>; names: Record<string, string> } {
  const values: Record<string, unknown> = {};
  const names: Record<string, string> = {};
  for (const [name, { path: p, kind }] of Object.entries(ENV_VARS)) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    let value: unknown = raw;
    if (kind === 'number') value = /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : raw;
    else if (kind === 'bool') value = /^(1|true|yes|on)$/i.test(raw) ? true : /^(0|false|no|off)$/i.test(raw) ? false : raw;
    else if (kind === 'list') value = raw.split(',').map((s) => s.trim()).filter(Boolean);
    else if (kind === 'onOff') {
      // only "off" means something here; the per-field variables carry the numbers
      if (/^(0|false|no|off)$/i.test(raw)) value = false;
      else if (/^(1|true|yes|on)$/i.test(raw)) continue;
    }
    setPath(values, p, value);
    names[p] = name;
  }
  return { values, names };
}

function originOf(p: string, flags: OperatorConfig | undefined, envNames: Record<string, string>, file: string): string {
  const top = p.split('.')[0];
  if (flags && (flags as any)[top] !== undefined) return `--${top.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  // the longest env path that is this path or contains it
  const hit = Object.keys(envNames)
    .filter((k) => p === k || p.startsWith(`${k}.`) || k.startsWith(`${p}.`))
    .sort((a, b) => b.length - a.length)[0];
  return hit ? envNames[hit] : file;
}

function describeIssues(error: z.ZodError, origin: (path: string) => string): string {
  return error.issues
    .map((issue) => {
      const at = issue.path.join('.');
      if (issue.code === 'unrecognized_keys') {
        return issue.keys.map((k) => `${origin(at ? `${at}.${k}` : k)}: unknown key '${at ? `${at}.` : ''}${k}'`).join('\n');
      }
      return `${origin(at)}: ${at || '(root)'}: ${issue.message}`;
    })
    .join('\n');
}

function setPath(obj: Record<string, any>, p: string, value: unknown): void {
  const parts = p.split('.');
  let at = obj;
  for (const part of parts.slice(0, -1)) {
    if (at[part] === undefined || at[part] === null || typeof at[part] !== 'object') at[part] = {};
    at = at[part];
  }
  at[parts[parts.length - 1]] = value;
}

function deepMerge(a: Record<string, any>, b: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const isObj = (x: unknown) => x !== null && typeof x === 'object' && !Array.isArray(x);
    out[k] = isObj(v) && isObj(out[k]) ? deepMerge(out[k], v) : v;
  }
  return out;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
