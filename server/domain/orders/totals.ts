/**
 * An order's money, the one place it is summed: order commands, sync's re-billing after a
 * merge (sync/derived.ts) and every screen read the numbers this makes, so the guest's cart,
 * the status page, order entry, the floor and the receipt all show the same total.
 *
 * Two ways a menu is priced (the restaurant's `prices_include_tax`, copied onto each order):
 * - exclusive: a line's tax is added on top, `round_half_up(amount × rate)`;
 * - inclusive: the price is what the guest pays and its tax is the part inside it,
 *   `round_half_up(amount × rate / (1 + rate))`; the total does not add it again.
 * Integer arithmetic on basis points, so a half cent rounds the same way on every node.
 */

/** rate × 10,000 in binary floating point can land just below the half (0.07125 → 712.4999…). */
const basisPointsOf = (rate: number) => Math.round(Number((rate * 10_000).toFixed(6)));

/** The tax of one line's amount (what is left of it after its own discount). */
export function lineTax(amount: number, rate: number, inclusive = false): number {
  const bp = basisPointsOf(rate);
  if (!inclusive) return Math.floor((amount * bp + 5_000) / 10_000);
  // amount × bp / (10,000 + bp), half up: floor((2·amount·bp + d) / 2d)
  const d = 10_000 + bp;
  return Math.floor((2 * amount * bp + d) / (2 * d));
}

export interface TotalLine {
  line_subtotal: number;
  tax_amount: number;
  discount_amount?: number;
  voided_at?: number | null;
}

export interface TotalOrder {
  prices_include_tax?: number;
  check_discount_amount?: number;
  tip_amount: number;
  delivery_fee: number;
}

/**
 * subtotal: the lines as listed (voided lines count nowhere); tax_amount: the lines' tax;
 * discount_amount: the check's discount plus the lines' own; then
 * total = subtotal (+ tax when exclusive) − discount_amount + tip_amount + delivery_fee.
 */
export function totalsOf(lines: TotalLine[], o: TotalOrder) {
  let subtotal = 0;
  let tax_amount = 0;
  let lineDiscounts = 0;
  for (const l of lines) {
    if (l.voided_at) continue;
    subtotal += l.line_subtotal;
    tax_amount += l.tax_amount;
    lineDiscounts += l.discount_amount ?? 0;
  }
  const discount_amount = (o.check_discount_amount ?? 0) + lineDiscounts;
  const added = o.prices_include_tax ? 0 : tax_amount;
  return { subtotal, tax_amount, discount_amount, total: subtotal + added - discount_amount + o.tip_amount + o.delivery_fee };
}
