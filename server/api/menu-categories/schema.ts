import { z } from 'zod';
import { f } from '../../model/fields.ts';
import { listParams, q } from '../../http/query.ts';

const fields = {
  name: f.name(),
  description: f.text(2000).nullable(),
  parent_category: f.id().nullable(),
  sort_order: f.int(-1_000_000, 1_000_000),
  station: z.string().min(1).max(32),
  image_url: f.url().nullable(),
  available_from: f.hhmm().nullable(),
  available_until: f.hhmm().nullable(),
  available_days: z.array(f.weekday()).max(7),
  translations: f.translations(),
  is_active: z.boolean(),
};

export const CreateCategory = z.object(fields).partial().required({ name: true });
export const UpdateCategory = z.object(fields).partial();

export const ListCategories = z.object({
  ...listParams(),
  parent_category: f.id().optional(),
  is_active: q.bool().optional(),
});
