import { z } from 'zod';
import { LANGUAGES } from '../../model/settings.ts';
import { STAFF_ROLES } from '../../domain/staff/staff.ts';
import { f } from '../../model/fields.ts';
import { listParams, q } from '../../http/query.ts';

const fields = {
  name: f.name(),
  // null or empty: a person who signs in by PIN only (a line cook, a server on the tablet)
  email: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), z.string().trim().max(254).pipe(z.email('must be an email address')).nullable()),
  role: z.enum(STAFF_ROLES),
  hourly_rate: f.money().nullable(),
  is_active: z.boolean(),
  language: z.enum(LANGUAGES).nullable(),
};

export const CreateStaff = z.object(fields).partial().required({ name: true });
export const UpdateStaff = z.object(fields).partial();
export const ListStaff = z.object({ ...listParams(), is_active: q.bool().optional() });
