import { createChallenge, verifySolution } from 'altcha-lib/v1';
import type { Executor } from '../../db/records.ts';
import { ApiError } from '../../errors.ts';

/** How long a challenge may be solved and redeemed, and how hard it is (the solver tries up to this many hashes). */
export const CAPTCHA_TTL_SECONDS = 10 * 60;
export const CAPTCHA_MAX_NUMBER = 50_000;

/**
 * Issues a proof-of-work challenge (altcha) for one caller IP and remembers it: the
 * stored row is what makes a solution count once, for that IP, before it expires.
 */
export async function issueChallenge(db: Executor, hmacKey: string, ip: string, nowMs: number, maxNumber = CAPTCHA_MAX_NUMBER) {
  const now = Math.floor(nowMs / 1000);
  const expiresAt = now + CAPTCHA_TTL_SECONDS;
  const challenge = await createChallenge({ hmacKey, maxNumber, expires: new Date(expiresAt * 1000) });
  await db.insertInto('captcha_challenges').values({ id: challenge.challenge, ip, expires_at: expiresAt, used_at: null, created: now }).execute();
  return { ...challenge, expires: expiresAt };
}

const refuse = (why: string) => new ApiError('captcha_invalid', `The bot check failed: ${why}. Fetch a new challenge from /public/captcha.`, 'captchaToken');

/**
 * Redeems a solved challenge (the base64 JSON payload the altcha widget produces). Refused:
 * malformed or wrongly solved, never issued here, issued to another IP, expired, or
 * already used. The use is claimed with a conditional UPDATE, so two concurrent
 * submissions of one token cannot both pass.
 */
export async function redeemChallenge(trx: Executor, hmacKey: string, token: string, ip: string, nowMs: number): Promise<void> {
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  } catch {
    throw refuse('the token is not a solved challenge');
  }
  // The shape altcha's verifier relies on; anything else (another algorithm, a number for a
  // salt) would make it throw, and a forged token is the client's error, never a 500.
  const solved =
    payload !== null &&
    typeof payload === 'object' &&
    ['challenge', 'salt', 'signature'].every((k) => typeof payload[k] === 'string') &&
    payload.algorithm === 'SHA-256' &&
    Number.isSafeInteger(payload.number);
  if (!solved) throw refuse('the token is not a solved challenge');
  // Expiry is checked against the stored row and the service clock, not the process clock.
  const verified = await verifySolution(payload as any, hmacKey, false).catch(() => false);
  if (!verified) throw refuse('the solution is wrong');
  const row = await trx.selectFrom('captcha_challenges').selectAll().where('id', '=', payload.challenge as string).executeTakeFirst();
  if (!row) throw refuse('the challenge is unknown');
  if (row.ip !== ip) throw refuse('the challenge was issued to another address');
  const now = Math.floor(nowMs / 1000);
  if (Number(row.expires_at) <= now) throw refuse('the challenge has expired');
  if (row.used_at !== null) throw refuse('the challenge was already used');
  const claimed = await trx
    .updateTable('captcha_challenges')
    .set({ used_at: now })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw refuse('the challenge was already used');
}

/** Forgets challenges a day after they expired (used ones stay until then so a replay is still refused as used). */
export async function purgeChallenges(db: Executor, nowMs: number): Promise<number> {
  const r = await db
    .deleteFrom('captcha_challenges')
    .where('expires_at', '<', Math.floor(nowMs / 1000) - 24 * 3600)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
