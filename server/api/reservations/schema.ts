import { z } from 'zod';
import { f } from '../../model/fields.ts';
import { listParams, q } from '../../http/query.ts';
import { MAX_SEATS } from '../tables/schema.ts';

import { RESERVATION_STATUSES } from '../../model/reservations.ts';

/** Bounds of a sitting's length (docs/integrators/reservations.md): a quarter hour to twelve hours. */
export const MIN_DURATION = 15;
export const MAX_DURATION = 720;

export const Availability = z.object({
  date: q.date(),
  party_size: q.int({ min: 1, max: MAX_SEATS }).optional(),
  from: q.time().optional(),
  to: q.time().optional(),
  slot_interval: q.int({ min: 5, max: 240 }).optional(),
});

const fields = {
  guest_name: f.name(),
  party_size: f.int(1, MAX_SEATS),
  date: q.date(),
  time: f.hhmm(),
  guest_email: z.email('must be an email address').max(254).nullable(),
  guest_phone: z.string().trim().min(1).max(40).nullable(),
  duration_minutes: f.int(MIN_DURATION, MAX_DURATION),
  table: f.id().nullable(),
  notes: f.text(2000).nullable(),
  special_requests: f.text(2000).nullable(),
  tags: f.tags(),
  source: z.string().trim().min(1).max(50),
};

export const CreateReservation = z.object(fields).partial().required({ guest_name: true, party_size: true, date: true, time: true });

export const UpdateReservation = z
  .object({ ...fields, status: z.unknown() })
  .partial()
  .refine((b) => b.status === undefined, { message: 'status changes use PATCH /v1/reservations/{id}/status', path: ['status'] });

// a string first, so a missing status reads as missing rather than as an invalid value
export const SetStatus = z.object({ status: z.string().pipe(z.enum(RESERVATION_STATUSES)) });

export const ListReservations = z.object({
  ...listParams(),
  status: z.enum(RESERVATION_STATUSES).optional(),
  date: q.date().optional(),
  'date.gte': q.int({ min: 0 }).optional(),
  'date.lte': q.int({ min: 0 }).optional(),
});
