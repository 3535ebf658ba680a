/**
 * An order's money, the one place it is computed: order commands, payments, sync's re-billing
 * after a merge (sync/derived.ts), the day close and every screen read the numbers this makes,
 * so the guest's cart (its quote) and order status, the service check and its discount sheet,
 * the payment panel, the receipt and the Z report all show the same amounts. No browser prices
 * a line again.
 *
 * Two ways a menu is priced (the restaurant's `prices_include_tax`, copied onto each order):
 * - exclusive: a line's tax is added on top, `round_half_up(amount × rate)`;
 * - inclusive: the price is what the guest pays and its tax is the part inside it,
 *   `round_half_up(amount × rate / (1 + rate))`; the total does not add it again.
 * Integer arithmetic on basis points, so a half cent rounds the same way on every node.
 *
 * A line's way to its net amount: its price (`line_subtotal`, 0 when voided), less its own
 * discount (a comp is a discount of the whole line), less its share of the check's discount
 * (spread over the lines in proportion to what each still costs, the cents left by rounding
 * going to the largest remainders, then the first lines), which leaves its taxable base; its
 * tax is on that base; `net_amount` is the base plus the tax where tax is added on top. The
 * check's total is the sum of its lines' net amounts plus its tip and delivery fee, so the
 * seats' totals always add up to the check.
 */

/** rate × 10,000 in binary floating point can land just below the half (0.07125 → 712.4999…). */
const basisPointsOf = (rate: number) => Math.round(Number((rate * 10_000).toFixed(6)));

/** The tax of one line's amount (what is left of it after its discounts). */
export function lineTax(amount: number, rate: number, inclusive = false): number {
  const bp = basisPointsOf(rate);
  if (!inclusive) return Math.floor((amount * bp + 5_000) / 10_000);
  // amount × bp / (10,000 + bp), half up: floor((2·amount·bp + d) / 2d)
  const d = 10_000 + bp;
  return Math.floor((2 * amount * bp + d) / (2 * d));
}

export interface TotalLine {
  line_subtotal: number;
  tax_rate: number;
  discount_amount?: number;
  voided_at?: number | null;
}

export interface TotalOrder {
  prices_include_tax?: number;
  check_discount_amount?: number;
  tip_amount: number;
  delivery_fee: number;
}

/** One line's way from its menu price to what the guest pays for it. */
export interface LineBill {
  /** the price as rung in; 0 for a voided line (voids are counted apart) */
  gross: number;
  /** the line's own discount, comps included */
  discount: number;
  /** a discount of the whole line */
  comped: boolean;
  /** its share of the check's discount */
  check_discount: number;
  /** what the tax is on: gross − discount − check_discount */
  base: number;
  tax_rate: number;
  tax: number;
  /** what the guest pays for the line: the base, plus its tax where tax is added on top */
  net_amount: number;
}

/** Splits `amount` over `weights` in proportion: largest remainders first, ties to the first. */
export function spread(amount: number, weights: number[]): number[] {
  const sum = weights.reduce((s, w) => s + w, 0);
  if (sum <= 0 || amount <= 0) return weights.map(() => 0);
  const shares = weights.map((w) => Math.floor((amount * w) / sum));
  let left = amount - shares.reduce((s, x) => s + x, 0);
  const order = weights
    .map((w, i) => ({ i, rest: (amount * w) % sum }))
    .filter((x) => weights[x.i]! > 0)
    .sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (let k = 0; left > 0 && order.length; k = (k + 1) % order.length, left--) shares[order[k]!.i]!++;
  return shares;
}

/** Every line's bill, in the order given. */
export function lineBills(lines: TotalLine[], o: Pick<TotalOrder, 'prices_include_tax' | 'check_discount_amount'>): LineBill[] {
  const inclusive = !!o.prices_include_tax;
  const own = lines.map((l) => (l.voided_at ? 0 : Math.min(Number(l.discount_amount ?? 0), Number(l.line_subtotal))));
  const after = lines.map((l, i) => (l.voided_at ? 0 : Number(l.line_subtotal) - own[i]!));
  const checkShares = spread(Math.min(Number(o.check_discount_amount ?? 0), after.reduce((s, x) => s + x, 0)), after);
  return lines.map((l, i) => {
    const gross = l.voided_at ? 0 : Number(l.line_subtotal);
    const base = after[i]! - checkShares[i]!;
    const tax = lineTax(base, Number(l.tax_rate), inclusive);
    return {
      gross,
      discount: own[i]!,
      comped: gross > 0 && own[i]! >= gross,
      check_discount: checkShares[i]!,
      base,
      tax_rate: Number(l.tax_rate),
      tax,
      net_amount: inclusive ? base : base + tax,
    };
  });
}

/**
 * The check's own discount as the lines carry it, and what a check discount is taken from. The
 * order's discount_amount adds the lines' own discounts to the first; the second is the lines'
 * prices less their own discounts (voided lines count nowhere), the base a percent off the check
 * is of (discountCheck) and the most an amount off it may be.
 */
export function checkDiscountOf(bills: LineBill[]) {
  let check_discount_amount = 0;
  let check_discount_base = 0;
  for (const b of bills) {
    check_discount_amount += b.check_discount;
    check_discount_base += b.gross - b.discount;
  }
  return { check_discount_amount, check_discount_base };
}

/**
 * The order's stored totals. subtotal: the lines at menu prices (voided lines count nowhere);
 * discount_amount: the lines' own discounts and comps plus the check's; tax_amount: the tax on
 * what is left; total: the lines' net amounts + tip_amount + delivery_fee, that is
 * subtotal (+ tax when exclusive) − discount_amount + tip_amount + delivery_fee.
 */
export function totalsOf(lines: TotalLine[], o: TotalOrder) {
  const bills = lineBills(lines, o);
  let subtotal = 0;
  let tax_amount = 0;
  let discount_amount = 0;
  let net = 0;
  for (const b of bills) {
    subtotal += b.gross;
    tax_amount += b.tax;
    discount_amount += b.discount + b.check_discount;
    net += b.net_amount;
  }
  return { subtotal, tax_amount, discount_amount, total: net + Number(o.tip_amount) + Number(o.delivery_fee) };
}
