import { createHash } from 'node:crypto';
import { randomToken } from '../server/auth/keys.ts';
import { loadSealingKey, seal, unseal } from '../server/operator/sealed.ts';
import type { Services } from '../server/services.ts';

/** Link codes and hub credentials are random and long: a plain SHA-256 is a safe lookup hash. */
export const hashSecret = (s: string) => createHash('sha256').update(s).digest('hex');

/** A one-time link code, easy to read aloud in groups: XXXXX-XXXXX-XXXXX-XXXXX. */
export const makeLinkCode = () => randomToken(20).match(/.{5}/g)!.join('-');

export const makeCredential = () => `shc_${randomToken(40)}`;

export const INVITE_TTL_SECONDS = 24 * 3600;

const PLAIN = /^shc_/;
const keys = new WeakMap<Services, Buffer>();

/**
 * The key the hub seals its credential with: the server's (operator/sealed.ts), or for a
 * command that runs no server the same key file in the data dir. It lives beside the
 * database, never in it, so a backup carries the credential sealed only.
 */
function sealingKey(services: Services): Buffer {
  if (services.operator) return services.operator.sealingKey;
  let key = keys.get(services);
  if (!key) keys.set(services, (key = loadSealingKey(services.config.dataDir)));
  return key;
}

export const sealCredential = (services: Services, credential: string) => seal(sealingKey(services), credential);

/**
 * The credential in the clear, from the link's stored form. One stored before credentials were
 * sealed is taken as it is (the hub seals it at its next start); one this machine's key cannot
 * open (the key file was lost, the database moved) is refused: link again.
 */
export function openCredential(services: Services, stored: string): string {
  if (PLAIN.test(stored)) return stored;
  const plain = unseal(sealingKey(services), stored);
  if (plain === null) throw new Error('the stored sync credential cannot be opened with this machine’s key (secret.key): unlink and link this hub again');
  return plain;
}

export const isSealed = (stored: string) => !PLAIN.test(stored);
