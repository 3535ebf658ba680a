import { z } from 'zod';
import { LANGUAGES } from '../../domain/restaurants/settings.ts';
import { STAFF_ROLES } from '../../domain/staff/staff.ts';
import { f } from '../../http/fields.ts';
import { listParams, q } from '../../http/query.ts';

const fields = {
  name: f.name(),
  email: z.string().trim().max(254).pipe(z.email('must be an email address')),
  role: z.enum(STAFF_ROLES),
  hourly_rate: f.money().nullable(),
  is_active: z.boolean(),
  language: z.enum(LANGUAGES).nullable(),
};

export const CreateStaff = z.object(fields).partial().required({ name: true, email: true });
export const UpdateStaff = z.object(fields).partial();
export const ListStaff = z.object({ ...listParams(), is_active: q.bool().optional() });
