/** A complete stations row: the smallest replicated record, for tests of the write path. */
export const stationRow = (restaurantId: string, key: string) => ({
  id: `st_${key}_${Math.random().toString(36).slice(2)}`,
  restaurant_id: restaurantId,
  key,
  name: key,
  is_active: 1,
  created: 1,
  updated: 1,
});
