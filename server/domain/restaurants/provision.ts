import { randomToken } from '../../auth/keys.ts';
import { hashPassword } from '../../auth/passwords.ts';
import type { Transactor } from '../../db/transact.ts';
import { insertRecord } from '../../db/records.ts';
import { newId, PREFIXES } from '../../ids.ts';
import { createApiKey } from '../keys/create-key.ts';
import { createRestaurant, type NewRestaurant } from './restaurants.ts';

export interface ProvisionOptions {
  ownerEmail?: string;
  /**
   * Give the owner a random password, returned this once (`comanda init`, `demo`). Without it
   * the owner has no sign-in yet and the back office opens on its setup page, where the
   * person at the hub chooses their own.
   */
  ownerPassword?: boolean;
}

/**
 * A new restaurant ready to use: its default stations, an owner, and the three keys (live
 * secret, sandbox secret, widget) shown this once. Used by `comanda init`, `demo` and the
 * first start of an empty hub.
 */
export async function provisionRestaurant(tx: Transactor, nowMs: number, input: NewRestaurant & ProvisionOptions) {
  const password = input.ownerPassword ? randomToken(16) : null;
  const passwordHash = password ? await hashPassword(password) : null;
  return tx.run(async (trx) => {
    const restaurant = await createRestaurant(trx, nowMs, input);
    const now = Math.floor(nowMs / 1000);
    const email = input.ownerEmail ?? `owner@${input.slug}.local`;
    await insertRecord(trx, 'users', {
      id: newId(PREFIXES.user, nowMs),
      restaurant_id: restaurant.id,
      email,
      name: 'Owner',
      role: 'owner',
      password_hash: passwordHash,
      hourly_rate: null,
      is_active: 1,
      created: now,
      updated: now,
    });
    const secret = await createApiKey(trx, nowMs, { restaurantId: restaurant.id, kind: 'secret', livemode: true, name: 'Default live key', grantedBy: 'operator' });
    const sandbox = await createApiKey(trx, nowMs, { restaurantId: restaurant.id, kind: 'secret', livemode: false, name: 'Default sandbox key', grantedBy: 'operator' });
    const widget = await createApiKey(trx, nowMs, { restaurantId: restaurant.id, kind: 'widget', livemode: true, name: 'Screens', grantedBy: 'operator' });
    return {
      restaurant: { id: restaurant.id, slug: restaurant.slug, name: restaurant.name },
      owner: { email, password },
      keys: { secret: secret.key, sandbox: sandbox.key, widget: widget.key },
    };
  });
}
