import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random base62 text; 32 characters carry ~190 bits. */
export function randomToken(length = 32): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    // 248 = 4 × 62: rejecting the rest keeps every character equally likely
    if (bytes[i] < 248) out += ALPHABET[bytes[i] % 62];
  }
  return out.length === length ? out : out + randomToken(length - out.length);
}

export type KeyKind = 'secret' | 'widget';

export function makeApiKey(kind: KeyKind, livemode: boolean): string {
  const mode = livemode ? 'live' : 'test';
  return `${kind === 'secret' ? 'sk' : 'wk'}_${mode}_${randomToken(32)}`;
}

/** Keys carry enough entropy that a plain SHA-256 is a safe, fast lookup hash. */
export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

export const keyPrefix = (key: string): string => key.slice(0, 12);
