import { z } from 'zod';
import { ORDER_STATUSES, ORDER_TYPES, LINE_STATUSES } from '../../model/orders.ts';
import { f } from '../../model/fields.ts';
import { q } from '../../http/query.ts';
import { lines, orderNotes } from './schema.ts';

export const PUBLIC_PAGE = { defaultLimit: 20, maxLimit: 100 } as const;

/** Screens write types the way people do: `dine-in`, `dine_in`, `Take-Out` are all understood. */
export const publicType = () =>
  z
    .string()
    .max(20)
    .transform((s) => s.trim().toLowerCase().replace(/[\s-]/g, '_').replace(/^take_out$/, 'takeout'))
    .pipe(z.enum(ORDER_TYPES, { message: 'must be dine-in, takeout or delivery' }));

export const SORTABLE = {
  createdAt: 'created',
  updatedAt: 'updated',
  placedAt: 'placed_at',
  orderNumber: 'order_number',
  total: 'total',
  status: 'status',
} as const;

const fields = z.string().max(1000).optional();

export const PublicList = z.object({
  fields,
  status: z.enum(ORDER_STATUSES, { message: `must be one of ${ORDER_STATUSES.join(', ')}` }).optional(),
  type: publicType().optional(),
  page: q.int({ min: 1, max: 100_000 }).optional(),
  limit: q.int({ min: 1, max: PUBLIC_PAGE.maxLimit }).optional(),
  sort: z.enum(Object.keys(SORTABLE) as [keyof typeof SORTABLE], { message: `must be one of ${Object.keys(SORTABLE).join(', ')}` }).optional(),
  order: z.enum(['asc', 'desc'], { message: 'must be asc or desc' }).optional(),
});

export const FieldsOnly = z.object({ fields });
export const KitchenQuery = z.object({ fields, station: z.string().min(1).max(50).optional() });

export const PublicCreate = z.object({
  type: publicType(),
  items: lines({ menuItemId: f.id() }),
  tableId: f.id().nullable().optional(),
  customerName: f.name().nullable().optional(),
  customerPhone: z.string().trim().max(40).nullable().optional(),
  customerEmail: z.string().trim().max(254).email('must be an email address').nullable().optional(),
  deliveryAddress: f.text(500).trim().nullable().optional(),
  notes: orderNotes(),
});

/** Whole-order moves a screen may make; anything else is a 400 and nothing is stored. */
export const PUBLIC_ORDER_STATUSES = ['placed', 'preparing', 'ready', 'served', 'completed', 'cancelled'] as const;

export const PublicStatus = z.object({
  status: z.string().pipe(z.enum(PUBLIC_ORDER_STATUSES, { message: `must be one of ${PUBLIC_ORDER_STATUSES.join(', ')}` })),
  cancelReason: z.string().trim().min(1).max(500).nullable().optional(),
});

export const LineStatus = z.object({
  status: z.string().pipe(z.enum(LINE_STATUSES, { message: `must be one of ${LINE_STATUSES.join(', ')}` })),
  /** optional: the station screen moving the line; it may only move its own lines */
  station: z.string().min(1).max(50).optional(),
});

export const LineParams = z.object({
  id: f.id(),
  itemIndex: z.string().regex(/^\d{1,3}$/, 'must be a zero-based line number').transform(Number),
});
