import { randomToken } from '../auth/keys.ts';
import { hashPassword } from '../auth/passwords.ts';
import { systemClock } from '../clock.ts';
import { updateRecord } from '../db/records.ts';
import { Transactor } from '../db/transact.ts';
import { normalizeEmail } from '../domain/customers/match-customer.ts';
import { revokeUserSessions } from '../domain/staff/sessions.ts';
import { PASSWORD_MIN } from '../domain/staff/sign-in.ts';
import { CliError, out, readFlags } from './args.ts';
import { openFromFlags } from './open.ts';

/**
 * `comanda staff reset-password --email …`: on the hub's own console, for an owner locked out
 * of the back office. Prints a new password (or sets the one given) and ends every session.
 */
export async function staffCommand(argv: string[]) {
  const [sub, ...rest] = argv;
  if (sub !== 'reset-password') throw new CliError('usage: comanda staff reset-password --email EMAIL [--restaurant SLUG] [--password P] [--data-dir DIR]');
  const flags = readFlags(rest, {
    'data-dir': 'string',
    'database-url': 'string',
    email: 'string',
    restaurant: 'string',
    password: 'string',
    json: 'boolean',
  });
  const email = normalizeEmail(flags.email as string | undefined);
  if (!email) throw new CliError('--email is required');
  const given = flags.password as string | undefined;
  if (given !== undefined && given.length < PASSWORD_MIN) throw new CliError(`--password must be at least ${PASSWORD_MIN} characters`);
  const database = await openFromFlags(flags);
  try {
    let q = database.db
      .selectFrom('users as u')
      .innerJoin('restaurants as r', 'r.id', 'u.restaurant_id')
      .select(['u.id', 'u.restaurant_id', 'u.name', 'u.role', 'r.slug'])
      .where('u.email', '=', email);
    if (flags.restaurant) q = q.where('r.slug', '=', flags.restaurant as string);
    const users = await q.execute();
    if (users.length === 0) throw new CliError(`no staff user with the email ${email}`);
    if (users.length > 1) throw new CliError(`${email} works at ${users.map((u) => u.slug).join(', ')}: add --restaurant SLUG`);
    const user = users[0];
    const password = given ?? randomToken(16);
    const hash = await hashPassword(password);
    const now = systemClock.now();
    await new Transactor(database.db).run((trx) =>
      updateRecord(trx, 'users', { id: user.id, restaurant_id: user.restaurant_id }, { password_hash: hash, is_active: 1, updated: Math.floor(now / 1000) }),
    );
    const signedOut = await revokeUserSessions(database.db, user.id, now);
    out(
      flags,
      { id: user.id, email, restaurant: user.slug, role: user.role, password: given ? undefined : password, sessions_revoked: signedOut },
      given
        ? `Password of ${email} (${user.slug}) set; ${signedOut} session(s) signed out.`
        : `New password of ${email} (${user.slug}): ${password}\nSign in at /app/login and change it. ${signedOut} session(s) signed out.`,
    );
  } finally {
    await database.close();
  }
}
