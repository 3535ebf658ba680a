/** Whom a batch of remote changes is applied for, and when (read by apply.ts and derived.ts). */
export interface ApplyContext {
  restaurantId: string;
  role: 'hub' | 'cloud';
  /** ms, for derived writes (event fan-out, hooks) */
  now: number;
}
