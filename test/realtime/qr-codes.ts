import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Services } from '../../server/services.ts';

/**
 * QR records belong to the orders feature. Until its table is merged in, the tests make a
 * minimal one; once it exists, rows are written with whatever else it requires filled in.
 */
export async function insertQrCode(services: Services, restaurantId: string, tableId: string | null): Promise<{ id: string; token: string }> {
  const db = services.db as unknown as Kysely<any>;
  const tables = await db.introspection.getTables();
  let table = tables.find((t) => t.name === 'qr_codes');
  if (!table) {
    await db.schema
      .createTable('qr_codes')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('restaurant_id', 'text', (c) => c.notNull())
      .addColumn('token', 'text', (c) => c.notNull().unique())
      .addColumn('table_id', 'text')
      .execute();
    table = (await db.introspection.getTables()).find((t) => t.name === 'qr_codes')!;
  }
  const row: Record<string, unknown> = {
    id: `qr_${randomBytes(8).toString('hex')}`,
    restaurant_id: restaurantId,
    token: randomBytes(16).toString('hex'),
    table_id: tableId,
  };
  // an active code: a disabled one is refused like an unknown token
  if (table.columns.some((c) => c.name === 'is_active')) row.is_active = 1;
  for (const col of table.columns) {
    if (col.name in row || col.isNullable || col.hasDefaultValue) continue;
    row[col.name] = /int|numeric|real|double/i.test(col.dataType) ? 0 : 'x';
  }
  await db.insertInto('qr_codes').values(row).execute();
  return { id: row.id as string, token: row.token as string };
}
