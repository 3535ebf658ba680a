import { PIN_PATTERN } from '../../domain/staff/pins.ts';
import { z } from 'zod';
import { MAX_LINES, MAX_QUANTITY } from '../../domain/orders/pricing.ts';
import { ORDER_STATUSES, ORDER_TYPES, type OrderStatus } from '../../model/orders.ts';
import { f } from '../../model/fields.ts';
import { listParams, q } from '../../http/query.ts';


export const quantity = () =>
  z
    .number({ message: `must be a whole number from 1 to ${MAX_QUANTITY}` })
    .int(`must be a whole number from 1 to ${MAX_QUANTITY}`)
    .min(1, `must be a whole number from 1 to ${MAX_QUANTITY}`)
    .max(MAX_QUANTITY, `must be at most ${MAX_QUANTITY}; split a bigger quantity into lines`);

export const modifierPick = () =>
  z.union([z.string().trim().min(1).max(200), z.object({ group: f.id().optional(), name: z.string().trim().min(1).max(200) })]);

export const lineNotes = () => f.text(500).nullable().optional();

/** A seat or course number: a whole number from 1 (a table of 99 is already a banquet). */
const position = (what: string) =>
  z
    .number({ message: `must be a whole number from 1 to 99 (the ${what})` })
    .int(`must be a whole number from 1 to 99 (the ${what})`)
    .min(1, `must be a whole number from 1 to 99 (the ${what})`)
    .max(99, `must be a whole number from 1 to 99 (the ${what})`);

/** The party at a check: how many guests (covers), 1 to 99 like its seats. */
export const covers = () => position('party size');

/** Where a staff member's line goes: the guest's seat and the course it is served with. */
export const courseNumber = () => position('course');

export const seatAndCourse = { seat: position('seat').nullable().optional(), course: position('course').nullable().optional() };
export const orderNotes = () => f.text(1000).nullable().optional();

/** One or more lines, at most MAX_LINES; each is a menu item id and a quantity, nothing priced. */
export const lines = <T extends z.ZodRawShape>(shape: T) =>
  z
    .array(z.object({ ...shape, quantity: quantity(), modifiers: z.array(modifierPick()).max(20).optional(), notes: lineNotes() }))
    .min(1, 'must hold at least one item')
    .max(MAX_LINES, `must hold at most ${MAX_LINES} lines`);

export const contact = {
  customer_name: f.name().nullable().optional(),
  customer_phone: z.string().trim().max(40).nullable().optional(),
  customer_email: z.string().trim().max(254).email('must be an email address').nullable().optional(),
};

/** A required enum that reports a missing value as missing (a bare z.enum calls it invalid). */
export const requiredEnum = <T extends readonly [string, ...string[]]>(values: T, message?: string) =>
  z.string().pipe(z.enum(values, message ? { message } : undefined));

export const CreateOrder = z.object({
  type: requiredEnum(ORDER_TYPES),
  items: lines({ menu_item: f.id(), ...seatAndCourse }),
  /** courses whose lines wait for POST /v1/orders/{id}/fire (dessert until the mains are cleared) */
  hold_courses: z.array(courseNumber()).max(20).optional(),
  /**
   * `placed`: sent to the kitchen with this request (a server's Send), as a draft placed by
   * PATCH would be, in one round trip. Absent or `draft`: a draft, as the spec says.
   */
  status: z.enum(['draft', 'placed']).optional(),
  table: f.id().nullable().optional(),
  server: f.id().nullable().optional(),
  ...contact,
  delivery_address: f.text(500).trim().nullable().optional(),
  notes: orderNotes(),
  /** the party's size (covers), when the server asked it on opening the table */
  covers: covers().nullable().optional(),
});

/** A further round on an open order, rung in by staff or an integration. */
export const AddItems = z.object({ items: lines({ menu_item: f.id(), ...seatAndCourse }), hold_courses: z.array(courseNumber()).max(20).optional() });

const STATUS_LIST = new RegExp(`^(${ORDER_STATUSES.join('|')})(,(${ORDER_STATUSES.join('|')}))*$`);

export const ListOrders = z.object({
  ...listParams(),
  /** one status, or several separated by commas (a floor's open checks in one request) */
  status: z
    .string()
    .regex(STATUS_LIST, `must be one or more of ${ORDER_STATUSES.join(', ')}, separated by commas`)
    .transform((s) => [...new Set(s.split(','))] as OrderStatus[])
    .optional(),
  type: z.enum(ORDER_TYPES).optional(),
  table: f.id().optional(),
  'created.gte': q.int({ min: 0 }).optional(),
  'created.lte': q.int({ min: 0 }).optional(),
  /** the number on the ticket (numbers restart daily: pair it with a date range) */
  order_number: z.string().trim().min(1).max(20).optional(),
  /** part of the customer's name, email or phone, any case */
  customer: z.string().trim().min(1).max(100).optional(),
});

const cancelReason = () => z.string().trim().min(1, 'must not be empty').max(500, 'must be at most 500 characters');

/** a manager's PIN, 4 to 6 digits: approves what a server's session may not do alone */
export const managerPin = () => z.string().regex(PIN_PATTERN, 'must be 4 to 6 digits').optional();

export const UpdateOrder = z.object({
  status: requiredEnum(
    ['placed', 'preparing', 'ready', 'served', 'completed', 'cancelled'] as const,
    'must be one of placed, preparing, ready, served, completed, cancelled (draft cannot be set)',
  ),
  cancel_reason: cancelReason().nullable().optional(),
  /** a server cancelling a check with lines at the stations or money taken: a manager's PIN approves it */
  manager_pin: managerPin(),
});

export const CancelOrder = z.object({ cancel_reason: cancelReason().nullable().optional(), manager_pin: managerPin() });
