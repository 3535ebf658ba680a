import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DATA_DIR_MODE, makeDirSync } from '../make-dir.ts';

export const KEY_FILE = 'secret.key';

/**
 * The key that seals credentials stored in the database. It lives beside the database,
 * never in it, so a backup copied to a USB disk or a synced folder carries the SMTP
 * password only sealed. From COMANDA_SECRET_KEY (64 hex digits) when set (the cloud),
 * else `secret.key` in the data dir, made on first use (readable by the owner only).
 * Without either (an in-memory database) a key lives as long as the process.
 */
export function loadSealingKey(dataDir: string | null, env: NodeJS.ProcessEnv = process.env): Buffer {
  const fromEnv = env.COMANDA_SECRET_KEY;
  if (fromEnv) {
    if (!/^[0-9a-f]{64}$/i.test(fromEnv)) throw new Error('COMANDA_SECRET_KEY must be 64 hex digits');
    return Buffer.from(fromEnv, 'hex');
  }
  if (!dataDir) return randomBytes(32);
  const file = path.join(dataDir, KEY_FILE);
  try {
    return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
  } catch (err: any) {
    if (err.code !== 'ENOENT') throw err;
  }
  makeDirSync(dataDir, DATA_DIR_MODE);
  try {
    fs.writeFileSync(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch (err: any) {
    if (err.code !== 'EEXIST') throw err;
  }
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
}

/** AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export function seal(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

/** The plain text, or null when this key did not seal it (another machine's, a lost key file). */
export function unseal(key: Buffer, sealed: string): string | null {
  const [v, iv, tag, data] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || data === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
