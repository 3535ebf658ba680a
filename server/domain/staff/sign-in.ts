import type { Kysely } from 'kysely';
import { hashPassword, verifyPassword } from '../../auth/passwords.ts';
import { accessRoleOf } from '../../auth/roles.ts';
import type { DB } from '../../db/schema.ts';
import { ApiError } from '../../errors.ts';
import { normalizeEmail } from '../customers/match-customer.ts';

// Compared against when no account matches, so a wrong email costs the same time as a wrong password.
let decoy: Promise<string> | null = null;

/**
 * The staff member an email and password name. Every refusal is the same 401, whatever was
 * wrong (no such person, no password set, wrong password, deactivated, a role without
 * sign-in), so the form never tells a stranger which emails work here.
 *
 * Exactly `checks` password hashes are computed per attempt, whatever the number of accounts
 * the email matches (decoys make up the rest): on the cloud, where one email may sign in at
 * several restaurants, the time taken must not say how many (issue 40). An email with more
 * accounts than that is checked against its first `checks`; a person whose password differs
 * between three or more restaurants names the restaurant.
 */
export async function checkCredentials(db: Kysely<DB>, input: { email: string; password: string; restaurant?: string }, opts: { checks?: number } = {}) {
  const checks = Math.max(1, opts.checks ?? 1);
  const email = normalizeEmail(input.email) ?? '';
  let q = db
    .selectFrom('users as u')
    .innerJoin('restaurants as r', 'r.id', 'u.restaurant_id')
    .select(['u.id', 'u.restaurant_id', 'u.password_hash', 'u.role', 'u.is_active', 'r.slug'])
    .where('u.email', '=', email);
  if (input.restaurant) q = q.where('r.slug', '=', input.restaurant);
  const rows = await q.orderBy('u.id').limit(10).execute();
  const candidates = rows.filter((r) => r.password_hash && Number(r.is_active) === 1 && accessRoleOf(r.role)).slice(0, checks);
  // The password is checked before anything else is said: an email used at two restaurants
  // answers like any other failure unless the password is right for one of them.
  const matching = [];
  for (const c of candidates) if (await verifyPassword(input.password, c.password_hash!)) matching.push(c);
  for (let i = candidates.length; i < checks; i++) {
    decoy ??= hashPassword('decoy password');
    await verifyPassword(input.password, await decoy);
  }
  if (matching.length === 0) throw new ApiError('sign_in_failed', 'The email or password is not right.');
  if (matching.length > 1) {
    throw new ApiError('parameter_missing', 'This email and password sign in to more than one restaurant here: name the restaurant.', 'restaurant');
  }
  const user = matching[0];
  return { userId: user.id, restaurantId: user.restaurant_id };
}

export const PASSWORD_MIN = 10;
