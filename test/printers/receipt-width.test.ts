import { describe, expect, it } from 'vitest';
import { renderSvg, renderText } from '../../printers/encoder.ts';
import { headlineAmount, moneyColumn, receipt, type OrderContext, type ReceiptPayment } from '../../server/domain/printers/documents.ts';
import type { OrderItemRow } from '../../server/db/tables/order-items.table.ts';
import type { OrderRow } from '../../server/db/tables/orders.table.ts';

/**
 * Big totals on paper: a receipt rendered as text at 58 and 80 mm, the total (and what is still
 * due) each on one line with every digit. A `{width:*,10}` column once printed `TOTAL EUR 1 0 1 . 9`
 * and then `0` alone on the next line.
 */

const ctx: OrderContext = { restaurantName: 'Trattoria', timezone: 'Europe/Rome', currency: 'EUR', table: 'Table 4', server: 'Maria', modifierGroups: new Map() };

function line(idx: number, name: string, amount: number, extra: Partial<OrderItemRow> = {}): OrderItemRow {
  return {
    id: `oi_${idx}`, restaurant_id: 'r', order_id: 'o', idx, menu_item_id: `mi_${idx}`, name, quantity: 1, unit_price: amount, modifiers: '[]',
    line_subtotal: amount, tax_rate: 0.1, tax_amount: Math.round((amount - (extra.discount_amount ?? 0)) / 11), notes: null, status: 'served',
    station: 'kitchen', round: 1, seat: null, course: null, held: 0, discount_amount: 0, discount_reason: null, discount_approved_by: null,
    voided_at: null, void_reason: null, voided_by: null, sent_to_kitchen_at: null, sent_by: null, ready_at: null, created: 0, updated: 0, ...extra,
  } as OrderItemRow;
}

/** A tax-inclusive check of `total`: the main line, a comped espresso, a voided water; half of it paid by card. */
function check(total: number, currency: string) {
  const items = [line(0, 'Tasting menu for the whole party', total), line(1, 'Espresso', 250, { discount_amount: 250, discount_reason: 'Comp' }), line(2, 'Water', 400, { voided_at: 1 })];
  const paid = Math.floor(total / 2);
  const order = {
    id: 'o', restaurant_id: 'r', order_number: '1042', business_date: '2026-11-28', type: 'dine_in', status: 'served', source: 'pos', table_id: null,
    server_id: null, customer_id: null, customer_name: null, customer_phone: null, customer_email: null, delivery_address: null, estimated_time_minutes: null,
    subtotal: total + 250, tax_amount: items[0].tax_amount, discount_amount: 250, tip_amount: 0, delivery_fee: 0, total, prices_include_tax: 1,
    check_discount_amount: 0, discount_reason: null, discount_approved_by: null, amount_paid: paid, currency, notes: null, placed_at: 0, completed_at: null,
    cancelled_at: null, cancel_reason: null, merged_into: null, is_self_service: 0, is_virtual_table: 0, virtual_table_label: null, qr_code_id: null,
    livemode: 1, created: 0, updated: 0,
  } as OrderRow; // the receipt reads none of the columns added since
  const payments: ReceiptPayment[] = [{ method: 'card', amount: paid, tip_amount: 0, tendered_amount: null, change_amount: null, reference: null, refunded: 0 }];
  return receipt({ ...ctx, currency }, order, items, Date.UTC(2026, 10, 28, 20), payments);
}

/** The printed lines holding `word`, with the spaces of double-width text taken out. */
const linesWith = (text: string, word: RegExp) =>
  text
    .split('\n')
    .map((l) => l.replace(/ /g, ''))
    .filter((l) => word.test(l));

const CASES = [
  { label: '€0.05', total: 5, currency: 'EUR', printed: '0.05', due: '0.03' },
  { label: '€101.90', total: 10190, currency: 'EUR', printed: '101.90', due: '50.95' },
  { label: '€12,345.67', total: 1234567, currency: 'EUR', printed: '12345.67', due: '6172.84' },
  { label: '¥1,234,567', total: 1234567, currency: 'JPY', printed: '1234567', due: '617284' },
  { label: '€9,999,999.99', total: 999999999, currency: 'EUR', printed: '9999999.99', due: '5000000.00' },
];

describe('a receipt total on one line', () => {
  for (const c of CASES) {
    for (const paper of [58, 80]) {
      it(`${c.label} at ${paper} mm`, () => {
        const doc = check(c.total, c.currency);
        const text = renderText(doc, paper);
        const width = paper === 58 ? 32 : 48;
        expect(text.split('\n').every((l) => l.length <= width)).toBe(true);
        // the total: label and every digit on one printed line, nothing of it on the next
        expect(linesWith(text, /TOTAL/)).toEqual([`TOTAL${c.currency}${c.printed}`]);
        const lines = text.split('\n');
        const at = lines.findIndex((l) => l.replace(/ /g, '').startsWith('TOTAL'));
        expect(lines[at + 1].trim()).not.toMatch(/^[\d.]+$/);
        expect(linesWith(text, /^Due/)).toEqual([`Due${c.due}`]);
        // each line's amount whole on its line, the comp as a minus
        expect(linesWith(text, /Tastingmenu/)[0]).toMatch(new RegExp(`${c.printed.replace('.', '\\.')}$`));
        expect(linesWith(text, /^Comp/)).toEqual([`Comp-${c.currency === 'JPY' ? '250' : '2.50'}`]);
        expect(text).not.toContain('Water');
        // the SVG the preview shows has the same total, drawn at the paper's width
        expect(renderSvg(doc, paper)).toMatch(new RegExp(`^<svg width="${paper === 58 ? 384 : 576}px"`));
      });
    }
  }

  it('sizes a money column for the longest amount (wide ones count twice) and keeps headlines within 58 mm', () => {
    expect(moneyColumn(['29.50', '-3.00', '^12345.67'])).toBe('{width:*,16}');
    expect(moneyColumn(['0.05'])).toBe('{width:*,4}');
    expect(moneyColumn([])).toBe('{width:*,1}');
    // both wide while they fit 32 characters, then a bold label, then normal width
    expect(headlineAmount('TOTAL EUR', '101.90')).toEqual(['{width:*,12}', '|^TOTAL EUR | ^101.90']);
    expect(headlineAmount('TOTAL EUR', '12345.67')).toEqual(['{width:*,16}', '|"TOTAL EUR" | ^12345.67']);
    expect(headlineAmount('TOTAL EUR', '123456789012.00')).toEqual(['{width:*,15}', '|"TOTAL EUR" | "123456789012.00"']);
    for (const [label, amount] of [['Net sales', '9999999.99'], ['TOTAL EUR', '99999999999999.99']]) {
      const text = renderText(headlineAmount(label, amount).join('\n'), 58);
      expect(text.trimEnd().split('\n')).toHaveLength(1);
    }
  });
});
