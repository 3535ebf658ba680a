// Part of migration 0001_foundation (history: never edit).
// Portable across SQLite and PostgreSQL: booleans are 0/1 integers, JSON is text, times are
// integer Unix seconds (bigint so PostgreSQL does not stop in 2038).
export const record = (tb: any) =>
  tb
    .addColumn('id', 'text', (c: any) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c: any) => c.notNull());
export const stamps = (tb: any) =>
  tb.addColumn('created', 'bigint', (c: any) => c.notNull()).addColumn('updated', 'bigint', (c: any) => c.notNull());

