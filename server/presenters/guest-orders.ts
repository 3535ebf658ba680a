import { z } from 'zod';
import { named } from '../model/schemas.ts';
import { QR_ORDER_TYPES } from '../model/orders.ts';

/** What a guest's phone reads from a QR code (camelCase, like the rest of /public). */
const QrCategory = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  parentCategory: z.string().nullable(),
  sortOrder: z.number().int(),
  station: z.string(),
  imageUrl: z.string().nullable(),
  availableFrom: z.string().nullable(),
  availableUntil: z.string().nullable(),
  availableDays: z.array(z.string()),
  availableNow: z.boolean(),
});

export const QrPageSchema = named(
  'QrPage',
  z.object({
    qrCode: z.object({ token: z.string(), type: z.enum(QR_ORDER_TYPES), label: z.string().nullable() }),
    restaurant: z.object({ name: z.string(), slug: z.string(), currency: z.string(), timezone: z.string(), language: z.string() }),
    table: z.object({ id: z.string(), number: z.number().int() }).nullable(),
    orderingType: z.enum(QR_ORDER_TYPES),
    categories: z.array(QrCategory),
  }),
);

export const QrMenuSchema = named(
  'QrMenu',
  z.object({
    currency: z.string(),
    categories: z.array(z.object({ id: z.string(), name: z.string(), parentCategory: z.string().nullable(), station: z.string() })),
    items: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        description: z.string().nullable(),
        price: z.number().int(),
        category: z.string(),
        station: z.string(),
        imageUrl: z.string().nullable(),
        allergens: z.array(z.string()),
        tags: z.array(z.string()),
        preparationTimeMinutes: z.number().int().nullable(),
        modifierGroups: z.array(
          z.object({
            id: z.string(),
            name: z.string(),
            required: z.boolean(),
            minSelections: z.number().int(),
            maxSelections: z.number().int(),
            modifiers: z.array(z.object({ name: z.string(), priceAdjustment: z.number().int(), isDefault: z.boolean() })),
          }),
        ),
      }),
    ),
  }),
);

/** A guest's cart priced by the hub before it is sent (POST /public/qr/{token}/quote). */
export const QrQuoteSchema = named(
  'QrQuote',
  z.object({
    currency: z.string(),
    /** each line in the order asked: its price as rung in, (the item's price + its modifiers') × quantity */
    items: z.array(z.object({ price: z.number().int() })),
    /** the lines' prices together: the order's subtotal once sent (its tax, where added on top, comes then) */
    subtotal: z.number().int(),
  }),
);
