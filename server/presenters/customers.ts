import { loyaltyPoints } from '../model/sales-rules.ts';
import type { Selectable } from 'kysely';
import type { CustomersTable } from '../db/tables/customers.table.ts';

/** A customer with the lifetime figures the order hook keeps (null before any sale). */
export type CustomerWithTotals = Selectable<CustomersTable> & { visits: number | null; total_spent: number | null };
import { z } from 'zod';
import { named, unix } from '../model/schemas.ts';

export const CustomerSchema = named(
  'Customer',
  z.object({
    id: z.string(),
    object: z.literal('customer'),
    created: unix(),
    updated: unix(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    first_seen: unix(),
    total_visits: z.number().int(),
    total_spent: z.number().int(),
    loyalty_points: z.number().int(),
  }),
);
export type Customer = z.output<typeof CustomerSchema>;

/** A customer with its lifetime figures over sales (see the analytics rules in docs/integrators/analytics.md). */
export function presentCustomer(row: CustomerWithTotals): Customer {
  const spent = Number(row.total_spent ?? 0);
  return {
    id: row.id,
    object: 'customer',
    created: row.created,
    updated: row.updated,
    name: row.name,
    email: row.email,
    phone: row.phone,
    first_seen: row.first_seen,
    total_visits: Number(row.visits ?? 0),
    total_spent: spent,
    loyalty_points: loyaltyPoints(spent),
  };
}
