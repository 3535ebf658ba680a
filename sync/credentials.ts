import { createHash } from 'node:crypto';
import { randomToken } from '../server/auth/keys.ts';

/** Link codes and hub credentials are random and long: a plain SHA-256 is a safe lookup hash. */
export const hashSecret = (s: string) => createHash('sha256').update(s).digest('hex');

/** A one-time link code, easy to read aloud in groups: XXXXX-XXXXX-XXXXX-XXXXX. */
export const makeLinkCode = () => randomToken(20).match(/.{5}/g)!.join('-');

export const makeCredential = () => `shc_${randomToken(40)}`;

export const INVITE_TTL_SECONDS = 24 * 3600;
