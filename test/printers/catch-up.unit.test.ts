import { describe, expect, it } from 'vitest';
import { arrivalOf, CATCH_UP_WITHIN_SECONDS, LATE_AFTER_SECONDS, lateMark, lateVoidMark, takeBackOf } from '../../server/domain/printers/catch-up.ts';
import type { OrderItemRow } from '../../server/db/tables/order-items.table.ts';
import type { OrderRow } from '../../server/db/tables/orders.table.ts';

/** The rule for lines another node sent to the kitchen, as they reach a hub (issue 44, stage 5). */
describe('what a hub prints of a line that arrives by sync', () => {
  const rungIn = Date.UTC(2026, 10, 2, 19, 14, 30) / 1000;
  const order = { status: 'placed', placed_at: rungIn - 600 } as OrderRow;
  const line = (extra: Partial<OrderItemRow> = {}) => ({ status: 'pending', voided_at: null, sent_to_kitchen_at: rungIn, created: rungIn - 600, ...extra }) as OrderItemRow;

  it('on time within two minutes, late after, nothing after four hours', () => {
    expect(arrivalOf(line(), order, rungIn + LATE_AFTER_SECONDS, true)).toEqual({ print: true, late: false });
    expect(arrivalOf(line(), order, rungIn + LATE_AFTER_SECONDS + 1, true)).toEqual({ print: true, late: true, rungIn });
    expect(arrivalOf(line(), order, rungIn + CATCH_UP_WITHIN_SECONDS, true)).toEqual({ print: true, late: true, rungIn });
    expect(arrivalOf(line(), order, rungIn + CATCH_UP_WITHIN_SECONDS + 1, true)).toEqual({ print: false });
  });

  it('a late line prints nothing with the setting off, nor once its check is completed', () => {
    expect(arrivalOf(line(), order, rungIn + 600, false)).toEqual({ print: false });
    expect(arrivalOf(line(), { ...order, status: 'completed' }, rungIn + 600, true)).toEqual({ print: false });
    // still to cook: a line a screen started prints
    expect(arrivalOf(line({ status: 'preparing' }), order, rungIn + 600, true)).toMatchObject({ print: true, late: true });
  });

  it('bumped or voided on the other node: nothing, late or not', () => {
    for (const at of [rungIn + 1, rungIn + 600]) {
      expect(arrivalOf(line({ status: 'ready' }), order, at, true)).toEqual({ print: false });
      expect(arrivalOf(line({ status: 'served' }), order, at, true)).toEqual({ print: false });
      expect(arrivalOf(line({ voided_at: rungIn }), order, at, true)).toEqual({ print: false });
    }
  });

  it('rung in: when sent (or fired), else when the order was placed', () => {
    expect(arrivalOf(line({ sent_to_kitchen_at: null }), order, rungIn + 60, true)).toEqual({ print: true, late: true, rungIn: rungIn - 600 });
  });

  it('the mark tells the time in the restaurant’s zone, in characters every printer has', () => {
    expect(lateMark(rungIn, 'Europe/Berlin')).toBe('LATE - rung in 20:14');
    expect(lateMark(rungIn, 'America/New_York')).toBe('LATE - rung in 14:14');
  });
});

/** A void (or cancel) from the other node of a line whose ticket the hub printed (issue 44). */
describe('what a hub prints when a printed line is voided on the other node', () => {
  const voidedAt = Date.UTC(2026, 10, 2, 19, 31, 10) / 1000;

  it('a VOID at once within two minutes, marked late after, nothing after four hours', () => {
    expect(takeBackOf(voidedAt, voidedAt + LATE_AFTER_SECONDS)).toEqual({ print: true, late: false });
    expect(takeBackOf(voidedAt, voidedAt + LATE_AFTER_SECONDS + 1)).toEqual({ print: true, late: true, voidedAt });
    expect(takeBackOf(voidedAt, voidedAt + CATCH_UP_WITHIN_SECONDS)).toEqual({ print: true, late: true, voidedAt });
    expect(takeBackOf(voidedAt, voidedAt + CATCH_UP_WITHIN_SECONDS + 1)).toEqual({ print: false });
  });

  it('the mark tells when it was voided, in the restaurant’s zone', () => {
    expect(lateVoidMark(voidedAt, 'Europe/Berlin')).toBe('LATE - voided 20:31');
  });
});
