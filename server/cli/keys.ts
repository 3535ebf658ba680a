import { systemClock } from '../clock.ts';
import { Transactor } from '../db/transact.ts';
import { createApiKey } from '../domain/keys/create-key.ts';
import { findRestaurantBySlugOrId } from '../domain/restaurants/restaurants.ts';
import { CliError, out, readFlags } from './args.ts';
import { openFromFlags } from './open.ts';

export async function keysCommand(argv: string[]) {
  const [sub, ...rest] = argv;
  if (sub !== 'create') throw new CliError('usage: comanda keys create --restaurant ID_OR_SLUG --scopes a,b [--sandbox] [--widget]');
  const flags = readFlags(rest, {
    'data-dir': 'string',
    'database-url': 'string',
    restaurant: 'string',
    scopes: 'string',
    sandbox: 'boolean',
    widget: 'boolean',
    name: 'string',
    json: 'boolean',
  });
  if (!flags.restaurant) throw new CliError('--restaurant is required');
  const database = await openFromFlags(flags);
  try {
    const restaurant = await findRestaurantBySlugOrId(database.db, flags.restaurant as string);
    if (!restaurant) throw new CliError(`no restaurant '${flags.restaurant}'`);
    const scopes = flags.scopes ? (flags.scopes as string).split(',').map((s) => s.trim()).filter(Boolean) : undefined;
    const key = await new Transactor(database.db).run((trx) =>
      createApiKey(trx, systemClock.now(), {
        restaurantId: restaurant.id,
        kind: flags.widget ? 'widget' : 'secret',
        livemode: !flags.sandbox,
        scopes,
        name: flags.name as string | undefined,
        grantedBy: 'operator',
      }),
    );
    out(flags, { id: key.id, key: key.key, scopes: key.scopes, livemode: key.livemode }, `${key.key}\n(${key.scopes.join(', ')}; shown once)`);
  } finally {
    await database.close();
  }
}
