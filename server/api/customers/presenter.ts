import type { CustomerWithTotals } from '../../domain/customers/customers.ts';
import { loyaltyPoints } from '../../domain/analytics/rules.ts';

/** A customer with its lifetime figures over sales (see the analytics rules in the README). */
export function presentCustomer(row: CustomerWithTotals) {
  const spent = Number(row.total_spent ?? 0);
  return {
    id: row.id,
    object: 'customer' as const,
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
