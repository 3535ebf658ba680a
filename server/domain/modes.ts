import type { Actor } from '../services.ts';

/**
 * Live and sandbox (`sk_test_`) work are kept apart: rows carry `livemode` 1 or 0, and a key
 * sees and changes only those of its own mode. The value of `livemode` a key may see.
 */
export const modeOf = (actor: Pick<Actor, 'livemode'>): 0 | 1 => (actor.livemode ? 1 : 0);
