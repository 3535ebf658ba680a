import { getAvailability } from '../../domain/reservations/get-availability.ts';
import { defineRoute, type RouteSpec } from '../../http/route.ts';
import { z } from 'zod';
import { named } from '../../model/schemas.ts';
import { Availability } from './schema.ts';

const AvailabilitySchema = named(
  'ReservationAvailability',
  z.object({
    object: z.literal('reservation_availability'),
    date: z.string(),
    party_size: z.number().int(),
    slot_interval_minutes: z.number().int(),
    open: z.boolean(),
    closed: z.boolean(),
    slots: z.array(z.object({ time: z.string(), available: z.boolean(), remaining_capacity: z.number().int(), total_reservations: z.number().int() })),
  }),
);

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/reservations/availability',
    response: AvailabilitySchema,
    summary: 'Bookable slots of one date for a party size, from opening hours, tables, reservations and the buffer',
    tag: 'Reservations',
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'reservations:read',
    query: Availability,
    handler: async (c) => getAvailability(c.db, c.actor(), c.query, c.services.availabilityCache),
  }),
];
