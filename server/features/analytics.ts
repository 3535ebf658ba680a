import { rollupHook } from '../domain/analytics/rollup.ts';
import type { Feature } from './feature.ts';

export const analyticsFeature: Feature = {
  name: 'analytics',
  // The roll-ups follow every order change inside the order's own transaction.
  orderHooks: [rollupHook],
};
