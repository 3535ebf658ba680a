import type { Executor } from '../../db/records.ts';
import { totalsOf } from '../../model/totals.ts';
import { catalogueOf } from '../menu/catalogue.ts';
import { wallClock } from '../wall-clock.ts';
import { priceLines, type LineInput } from './pricing.ts';

/**
 * What lines would cost if a guest sent them now, written nowhere: each line's price as rung in
 * ((the item's price + its modifiers') × quantity) and their sum, priced and checked as the
 * order would be (priceLines on the guest menu), so the cart on a phone shows the hub's figures.
 */
export async function quoteLines(db: Executor, restaurantId: string, now: number, lines: LineInput[]) {
  const catalogue = await catalogueOf(db, restaurantId);
  const { restaurant } = catalogue;
  const priced = priceLines(catalogue, lines, {
    defaultTaxRate: restaurant.default_tax_rate,
    pricesIncludeTax: catalogue.pricesIncludeTax,
    availableAt: wallClock(now, restaurant.timezone),
  });
  const { subtotal } = totalsOf(priced, { prices_include_tax: catalogue.pricesIncludeTax ? 1 : 0, tip_amount: 0, delivery_fee: 0 });
  return { currency: restaurant.currency, items: priced.map((l) => ({ price: l.line_subtotal })), subtotal };
}
