import { systemClock } from '../clock.ts';
import { Transactor } from '../db/transact.ts';
import { provisionRestaurant } from '../domain/restaurants/provision.ts';
import { isPlan } from '../domain/restaurants/plans.ts';
import { CliError, out, readFlags } from './args.ts';
import { openFromFlags } from './open.ts';

export const initFlags = {
  'data-dir': 'string',
  'database-url': 'string',
  name: 'string',
  slug: 'string',
  plan: 'string',
  currency: 'string',
  timezone: 'string',
  json: 'boolean',
} as const;

export async function initCommand(argv: string[]) {
  const flags = readFlags(argv, initFlags);
  const name = flags.name as string | undefined;
  const slug = flags.slug as string | undefined;
  if (!name || !slug) throw new CliError('--name and --slug are required');
  if (!/^[a-z0-9][a-z0-9-]{1,62}$/.test(slug)) throw new CliError('--slug must be 2–63 lowercase letters, digits or dashes');
  if (flags.plan && !isPlan(flags.plan as string)) throw new CliError(`unknown plan '${flags.plan}'`);
  const database = await openFromFlags(flags);
  try {
    const result = await provisionRestaurant(new Transactor(database.db), systemClock.now(), {
      name,
      slug,
      plan: flags.plan as string | undefined,
      currency: (flags.currency as string | undefined)?.toLowerCase(),
      timezone: flags.timezone as string | undefined,
      ownerPassword: true,
    });
    out(flags, result, describe(result));
  } finally {
    await database.close();
  }
}

export function describe(r: Awaited<ReturnType<typeof provisionRestaurant>>): string {
  return [
    `Restaurant ${r.restaurant.name} (${r.restaurant.slug}, ${r.restaurant.id})`,
    r.owner.password ? `Owner login:  ${r.owner.email} / ${r.owner.password} (sign in at /app/login)` : `Owner:        ${r.owner.email}, no password yet: open /app/ on the hub to set one`,
    `Live key:     ${r.keys.secret}`,
    `Sandbox key:  ${r.keys.sandbox}`,
    `Widget key:   ${r.keys.widget}`,
    'These keys are shown once; store them now.',
  ].join('\n');
}
