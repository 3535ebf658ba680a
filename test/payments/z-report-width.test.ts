import { describe, expect, it } from 'vitest';
import { renderText } from '../../printers/encoder.ts';
import type { DayClose } from '../../server/model/payments.ts';
import { zReport } from '../../server/domain/payments/z-report.ts';

/**
 * The Z report on paper: every figure whole on its own line at 58 and 80 mm, from a few cents to
 * a day of ¥1,234,567, and the close's order (gross, discounts, comps, net, tax on its base…).
 */
const tally = (count: number, amount: number) => ({ count, amount });

function close(total: number, currency: string): DayClose {
  const discounts = Math.floor(total / 20);
  const comps = Math.floor(total / 50);
  const gross = total + discounts + comps;
  const tax = Math.floor(total / 11);
  return {
    date: '2026-11-28',
    currency,
    livemode: true,
    prices_include_tax: true,
    sales: {
      orders: 12,
      gross,
      discounts,
      comps,
      net: total,
      tax,
      net_excl_tax: total - tax,
      by_tax_rate: [{ rate: 0.1, base: total, tax, net_excl_tax: total - tax }],
      delivery_fees: 0,
      order_tips: 0,
      total,
      refunds: 0,
      net_after_returns: total,
    },
    discounts: tally(2, discounts),
    comps: tally(1, comps),
    voids: tally(1, 750),
    refunds: { ...tally(0, 0), returns: tally(0, 0) },
    payments: { count: 3, taken: total, refunded: 0, net: total },
    by_method: [
      { method: 'cash', count: 1, amount: total - Math.floor(total / 2), tip_amount: 0, refunded_amount: 0 },
      { method: 'card', count: 2, amount: Math.floor(total / 2), tip_amount: 100, refunded_amount: 0 },
      { method: 'other', count: 0, amount: 0, tip_amount: 0, refunded_amount: 0 },
    ],
    total_tips: 100,
    tips_by_server: [{ server: 'usr_1', name: 'Tina', count: 2, tip_amount: 100 }],
    cash: { opening_float: 10000, sales: total - Math.floor(total / 2), tips: 0, paid_in: 0, paid_out: 0, expected: 10000 + total - Math.floor(total / 2), counted: null, over_short: null, counted_at: null },
    open_orders: { count: 0, amount_due: 0, orders: [] },
    cancellations: { count: 0, amount: 0, orders: [] },
  };
}

const CASES = [
  { label: '€0.05', total: 5, currency: 'eur', printed: '0.05' },
  { label: '€101.90', total: 10190, currency: 'eur', printed: '101.90' },
  { label: '€12,345.67', total: 1234567, currency: 'eur', printed: '12345.67' },
  { label: '¥1,234,567', total: 1234567, currency: 'jpy', printed: '1234567' },
];

describe('the Z report on paper', () => {
  for (const c of CASES) {
    for (const paper of [58, 80]) {
      it(`${c.label} at ${paper} mm: every figure on one line`, () => {
        const text = renderText(zReport('Osteria Nuova', 'Europe/Rome', close(c.total, c.currency), Date.UTC(2026, 10, 28, 23)), paper);
        const lines = text.split('\n');
        expect(lines.every((l) => l.length <= (paper === 58 ? 32 : 48))).toBe(true);
        // no line holds only the end of a figure that began on the line before
        expect(lines.filter((l) => /^\s*[\d.,]+\s*$/.test(l))).toEqual([]);
        const net = lines.find((l) => /Net sales/.test(l))!;
        expect(net.replace(/ /g, '')).toMatch(new RegExp(`${c.printed.replace('.', '\\.')}$`));
        const order = ['Gross sales', 'Discounts', 'Comps', 'Net sales', 'Tax 10%', 'Net excl. tax', 'Returns', 'Voids', 'PAYMENTS', 'Refunds', 'Tips', 'CASH DRAWER', 'Opening float', 'Expected', 'Open checks', 'Cancelled checks'];
        // headings print double width, their letters spaced out
        const at = order.map((w) => lines.findIndex((l) => l.includes(w) || l.replace(/ /g, '') === w.replace(/ /g, '')));
        expect(at.every((i) => i >= 0)).toBe(true);
        expect([...at].sort((a, b) => a - b)).toEqual(at);
      });
    }
  }
});
