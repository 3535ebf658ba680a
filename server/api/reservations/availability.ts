import { getAvailability } from '../../domain/reservations/get-availability.ts';
import { defineRoute } from '../../http/route.ts';
import { Availability } from './schema.ts';

defineRoute({
  method: 'get',
  path: '/v1/reservations/availability',
  summary: 'Bookable slots of one date for a party size, from opening hours, tables, reservations and the buffer',
  tag: 'Reservations',
  auth: 'secret',
  sandbox: 'own_mode',
  scope: 'reservations:read',
  query: Availability,
  handler: async (c) => getAvailability(c.db, c.actor(), c.query, c.services.availabilityCache),
});
