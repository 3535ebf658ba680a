import type { Config, SmtpConfig } from '../config.ts';
import type { Executor } from '../db/records.ts';
import { ApiError } from '../errors.ts';
import { readHubSetting, writeHubSetting } from './hub-settings.ts';
import { seal, unseal } from './sealed.ts';

const NAME = 'notification_transports';

/** As stored: secrets sealed. `undefined` = not set here (the config file's value applies). */
interface Stored {
  smtp?: (Omit<SmtpConfig, 'pass'> & { pass?: string }) | null;
  from?: string;
  sms?: { url: string; token?: string } | null;
}

/** The transports as the dashboard set them, secrets opened; an unset key leaves the config file's value. */
export interface TransportSettings {
  smtp?: SmtpConfig | null;
  from?: string;
  sms?: { url: string; token?: string } | null;
  /** a sealed secret this machine's key cannot open (the key file was lost or the database moved) */
  unreadable: string[];
}

/** A change from the dashboard. A secret left out keeps the stored one; null clears it. */
export interface TransportPatch {
  smtp?: { host: string; port: number; secure?: boolean; user?: string | null; pass?: string | null } | null;
  from?: string;
  sms?: { url: string; token?: string | null } | null;
}

async function readStored(db: Executor): Promise<Stored> {
  return readHubSetting<Stored>(db, NAME);
}

export async function readTransportSettings(db: Executor, key: Buffer): Promise<TransportSettings> {
  const s = await readStored(db);
  const unreadable: string[] = [];
  const open = (sealed: string | undefined, what: string) => {
    if (sealed === undefined) return undefined;
    const plain = unseal(key, sealed);
    if (plain === null) unreadable.push(what);
    return plain ?? undefined;
  };
  return {
    ...(s.smtp !== undefined && { smtp: s.smtp && { ...s.smtp, pass: open(s.smtp.pass, 'smtp.pass') } }),
    ...(s.from !== undefined && { from: s.from }),
    ...(s.sms !== undefined && { sms: s.sms && { url: s.sms.url, token: open(s.sms.token, 'sms.token') } }),
    unreadable,
  };
}

export async function saveTransportSettings(db: Executor, key: Buffer, nowMs: number, patch: TransportPatch): Promise<void> {
  const s = await readStored(db);
  const next: Stored = { ...s };
  if (patch.smtp !== undefined) {
    if (patch.smtp === null) next.smtp = null;
    else {
      const { pass, user, ...rest } = patch.smtp;
      const keptPass = s.smtp?.pass;
      if (pass === undefined && keptPass && !sameMailServer(s.smtp!, patch.smtp)) {
        throw new ApiError(
          'parameter_missing',
          'The mail server changed (host, port or TLS): give its password again (pass), or null for none. A stored password is only ever sent to the server it was given for.',
          'smtp.pass',
        );
      }
      next.smtp = {
        ...rest,
        ...(user ? { user } : {}),
        ...(pass === undefined ? (keptPass ? { pass: keptPass } : {}) : pass === null ? {} : { pass: seal(key, pass) }),
      };
    }
  }
  if (patch.from !== undefined) next.from = patch.from;
  if (patch.sms !== undefined) {
    if (patch.sms === null) next.sms = null;
    else {
      const kept = s.sms?.token;
      const t = patch.sms.token;
      if (t === undefined && kept && s.sms!.url !== patch.sms.url) {
        throw new ApiError(
          'parameter_missing',
          'The SMS gateway URL changed: give its token again (token), or null for none. A stored token is only ever sent to the URL it was given for.',
          'sms.token',
        );
      }
      next.sms = { url: patch.sms.url, ...(t === undefined ? (kept ? { token: kept } : {}) : t === null ? {} : { token: seal(key, t) }) };
    }
  }
  await writeHubSetting(db, NAME, nowMs, next);
}

/**
 * Where a stored SMTP password goes: the host, the port and whether the connection is TLS
 * from the start. The password follows none of them to a new value (a manager could
 * otherwise point the hub at their own server and read it off the login).
 */
function sameMailServer(stored: { host: string; port: number; secure?: boolean }, next: { host: string; port: number; secure?: boolean }): boolean {
  return stored.host.toLowerCase() === next.host.toLowerCase() && stored.port === next.port && (stored.secure ?? false) === (next.secure ?? false);
}

/** The config's mail and SMS with what the dashboard set laid over them. */
export function effectiveTransports(config: Pick<Config, 'mail' | 'sms'>, s: TransportSettings) {
  return {
    mail: { ...config.mail, ...(s.smtp !== undefined && { smtp: s.smtp }), ...(s.from !== undefined && { from: s.from }) },
    sms: s.sms !== undefined ? s.sms : config.sms,
    source: {
      email: s.smtp !== undefined ? ('settings' as const) : config.mail.smtp ? ('config' as const) : null,
      sms: s.sms !== undefined ? ('settings' as const) : config.sms ? ('config' as const) : null,
    },
  };
}
