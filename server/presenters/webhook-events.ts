import { z } from 'zod';
import { WAITLIST_STATUSES } from '../model/waitlist.ts';
import { EVENT_TYPES, type EventType } from '../model/events.ts';
import { unix } from '../model/schemas.ts';
import { WaitlistEntrySchema } from './guest.ts';
import { OrderSchema } from './orders.ts';
import { PaymentSchema, RefundSchema } from './payments.ts';
import { ReservationSchema } from './reservations.ts';

/**
 * What a webhook delivery carries under `data` for each event type: `object`, the resource as
 * the API shows it, and what the change adds. The OpenAPI document's `webhooks` has one entry
 * per type with this payload (http/openapi-webhooks.ts); `data` in GET /v1/events is the same.
 */
const WAITLIST_STATUS = z.enum(WAITLIST_STATUSES);
const itemIndexes = z.array(z.number().int()).describe('indexes of the order lines concerned');

const order = (extra: z.ZodRawShape = {}) => z.object({ object: OrderSchema, ...extra });
const waitlistMove = z.object({ object: WaitlistEntrySchema, previous_status: WAITLIST_STATUS });

export const EVENT_DATA: Record<EventType, z.ZodObject> = {
  'order.created': order(),
  'order.updated': order(),
  'order.completed': order(),
  'order.cancelled': order({
    cancel_reason: z.string().nullable(),
    merged_into: z.string().optional().describe('set when the check was merged into another order (order.merged names it)'),
  }),
  'order.paid': order(),
  'order.course_fired': order({ course: z.number().int(), items: itemIndexes }),
  'order.item_voided': order({ item: z.number().int(), reason: z.string().nullable(), voided_by: z.string().nullable() }),
  'order.discounted': order({
    item: z.number().int().optional().describe('the line discounted; absent for a discount on the whole check'),
    discount_amount: z.number().int(),
    reason: z.string().nullable(),
    approved_by: z.string().nullable(),
  }),
  'order.transferred': order({ from_table: z.string().nullable(), to_table: z.string() }),
  'order.items_moved': order({ items: itemIndexes, seat: z.number().int().nullable().optional(), course: z.number().int().nullable().optional() }),
  'order.merged': order({ from: z.string(), items: itemIndexes, payments: z.array(z.string()) }),
  'payment.succeeded': z.object({ object: PaymentSchema }),
  'payment.refunded': z.object({ object: PaymentSchema, refund: RefundSchema }),
  'reservation.created': z.object({ object: ReservationSchema }),
  'reservation.updated': z.object({ object: ReservationSchema }),
  'reservation.cancelled': z.object({ object: ReservationSchema }),
  'reservation.no_show': z.object({ object: ReservationSchema }),
  'waitlist.joined': z.object({ object: WaitlistEntrySchema }),
  'waitlist.notified': waitlistMove,
  'waitlist.seated': waitlistMove,
  'waitlist.cancelled': waitlistMove,
  'waitlist.expired': waitlistMove,
};

/** The body of one delivery of a `type` event (domain/webhooks/payload.ts writes it). */
export const webhookPayloadSchema = (type: EventType) =>
  z.object({
    id: z.string().describe('the event id (evt_…), also in the webhook-id header: de-duplicate on it'),
    object: z.literal('event'),
    type: z.literal(type),
    created: unix().describe('when the event happened, Unix seconds'),
    livemode: z.boolean(),
    data: EVENT_DATA[type],
  });

export const WEBHOOK_PAYLOADS = new Map(EVENT_TYPES.map((t) => [t, webhookPayloadSchema(t)]));
