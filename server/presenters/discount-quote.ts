import { z } from 'zod';
import { named } from '../model/schemas.ts';

/** What a discount of a line or of the check would take off, before it is applied (nothing is written). */
export const DiscountQuoteSchema = named(
  'DiscountQuote',
  z.object({
    object: z.literal('discount_quote'),
    /** what the discount is taken from: the line's subtotal, or the order's check_discount_base */
    base: z.number().int(),
    /** what it takes off: the amount asked, or the percent of base rounded half up; what the POST records */
    amount: z.number().int(),
    /** base − amount */
    left: z.number().int(),
  }),
);
export type DiscountQuote = z.output<typeof DiscountQuoteSchema>;

export const presentDiscountQuote = (q: { base: number; amount: number; left: number }): DiscountQuote => ({ object: 'discount_quote', ...q });
