import type { DevicePairingsTable } from '../tables/device-pairings.table.ts';

/** Tables of the kitchen/expo/floor screens: local to their node, none replicated. */
export interface ScreensTables {
  device_pairings: DevicePairingsTable;
}
