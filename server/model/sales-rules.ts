import type { OrderStatus } from './orders.ts';

/**
 * Which orders are sales: live (never sandbox) and neither a draft nor cancelled. Every
 * report and the customer totals use this one rule.
 */
export function countsAsSale(order: { status: OrderStatus; livemode: number }): boolean {
  return order.livemode === 1 && order.status !== 'draft' && order.status !== 'cancelled';
}

/** Whether a line of a sale was sold: a voided line counts nowhere, neither its quantity nor its revenue. */
export const countsAsSold = (line: { voided_at: number | null }): boolean => line.voided_at === null;

/**
 * What a sold line brought in, for the product mix and Menu ABC: its price after its own
 * discount, so a comped line counts its quantity at 0. A check-level discount is the check's,
 * not any one dish's, and stays out of it (as it stays out of every line's own figures).
 */
export const lineRevenue = (line: { line_subtotal: number; discount_amount: number }): number => line.line_subtotal - line.discount_amount;

/** One loyalty point per whole currency unit (100 cents) of lifetime sales. */
export const loyaltyPoints = (totalSpent: number): number => Math.floor(totalSpent / 100);

/** a / b rounded half up, for non-negative integers; 0 when b is 0. */
export function roundDiv(a: number, b: number): number {
  if (b === 0) return 0;
  return Math.floor((2 * a + b) / (2 * b));
}
