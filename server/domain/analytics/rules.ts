import type { OrderRow } from '../../db/tables/orders.table.ts';

/**
 * Which orders are sales: live (never sandbox) and neither a draft nor cancelled. Every
 * report and the customer totals use this one rule.
 */
export function countsAsSale(order: Pick<OrderRow, 'status' | 'livemode'>): boolean {
  return order.livemode === 1 && order.status !== 'draft' && order.status !== 'cancelled';
}

/** One loyalty point per whole currency unit (100 cents) of lifetime sales. */
export const loyaltyPoints = (totalSpent: number): number => Math.floor(totalSpent / 100);

/** a / b rounded half up, for non-negative integers; 0 when b is 0. */
export function roundDiv(a: number, b: number): number {
  if (b === 0) return 0;
  return Math.floor((2 * a + b) / (2 * b));
}
