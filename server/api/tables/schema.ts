import { z } from 'zod';
import { f } from '../../model/fields.ts';
import { listParams, q } from '../../http/query.ts';

/** Largest party a single table (and a reservation) may hold; see docs/integrators/reservations.md. */
export const MAX_SEATS = 100;

const fields = {
  number: f.int(1, 100_000),
  capacity: f.int(1, MAX_SEATS),
  min_capacity: f.int(1, MAX_SEATS).nullable(),
  zone: z.string().trim().min(1).max(100).nullable(),
  is_active: z.boolean(),
  // the floor plan (back office → Floor → Arrange): plan units, 0–1000 each way
  plan_x: f.int(0, 1000).nullable(),
  plan_y: f.int(0, 1000).nullable(),
  plan_width: f.int(20, 1000).nullable(),
  plan_height: f.int(20, 1000).nullable(),
  shape: z.enum(['square', 'round', 'rect']).nullable(),
};

export const CreateTable = z.object(fields).partial().required({ number: true, capacity: true });

export const UpdateTable = z.object(fields).partial();

export const ListTables = z.object({
  ...listParams(),
  zone: q.string(100).optional(),
  is_active: q.bool().optional(),
});
