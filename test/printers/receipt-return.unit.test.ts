import { describe, expect, it } from 'vitest';
import { renderText } from '../../printers/encoder.ts';
import { receipt } from '../../server/domain/printers/documents.ts';
import type { OrderItemRow } from '../../server/db/tables/order-items.table.ts';
import type { OrderRow } from '../../server/db/tables/orders.table.ts';

/**
 * A receipt reprinted after a return (a refund on a completed check, issue 39 item 4): the check
 * owes nothing, so the receipt says PAID, not "Due" the amount given back. Found by the money
 * property test (test/payments/money-property.test.ts), which reads every receipt's total and due.
 */
describe('a receipt after a return', () => {
  it('prints PAID and no amount due', () => {
    const item = { id: 'oi_1', idx: 0, name: 'Espresso', quantity: 3, line_subtotal: 999, tax_rate: 0.1, tax_amount: 91, discount_amount: 0, voided_at: null, modifiers: '[]' } as unknown as OrderItemRow;
    const order = {
      order_number: '1', status: 'completed', subtotal: 999, tax_amount: 91, discount_amount: 0, tip_amount: 0, delivery_fee: 0, total: 999,
      prices_include_tax: 1, amount_paid: 780, amount_returned: 219, currency: 'eur',
    } as unknown as OrderRow;
    const doc = receipt({ restaurantName: 'Bar', timezone: 'Europe/Berlin', currency: 'eur', table: null, server: null, modifierGroups: new Map() }, order, [item], 0, [
      { method: 'card', amount: 999, tip_amount: 0, tendered_amount: null, change_amount: null, reference: null, refunded: 219 },
    ]);
    const text = renderText(doc, 80).replace(/ /g, '');
    expect(text).toContain('Refunded-2.19');
    expect(text).not.toMatch(/Due/);
    expect(text).toContain('PAID');
  });
});
