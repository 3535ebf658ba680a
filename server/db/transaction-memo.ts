/**
 * Reads a SQLite write transaction keeps for its later units of work (group commit runs up to
 * a batch of them in one transaction): a restaurant's log versions, a scope's last stamp.
 * While the transaction is open no other connection commits (one writer, BEGIN IMMEDIATE),
 * and its own reads see one snapshot plus its own writes, so such a value changes only
 * through this transaction's writes: records.ts forgets a kept version when it logs a change
 * of one of its tables, and whatever rolls part of the transaction back (a unit's savepoint)
 * forgets everything kept, since a value read inside the undone part may name rows that are
 * gone. Not for PostgreSQL, where other transactions commit meanwhile.
 */
interface Kept {
  /** the tables whose logged changes make it stale; null for any change at all */
  tables: readonly string[] | null;
  value: unknown;
}

const kept = new WeakMap<object, Map<string, Kept>>();

export function keptRead<T>(trx: object, key: string): T | undefined {
  return kept.get(trx)?.get(key)?.value as T | undefined;
}

export function keepRead(trx: object, key: string, tables: readonly string[] | null, value: unknown): void {
  let map = kept.get(trx);
  if (!map) kept.set(trx, (map = new Map()));
  map.set(key, { tables, value });
}

/** Changes of these tables were just logged: what was kept of them is stale. */
export function forgetTables(trx: object, tables: ReadonlySet<string>): void {
  const map = kept.get(trx);
  if (!map) return;
  for (const [key, k] of map) if (k.tables === null ? tables.size > 0 : k.tables.some((t) => tables.has(t))) map.delete(key);
}

/** Part of the transaction was rolled back: nothing kept can be trusted. */
export function forgetAll(trx: object): void {
  kept.delete(trx);
}
