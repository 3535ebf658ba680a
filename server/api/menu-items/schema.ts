import { z } from 'zod';
import { f } from '../../model/fields.ts';
import { listParams, q } from '../../http/query.ts';

const nutrition = z
  .object({
    calories: z.number().min(0),
    protein: z.number().min(0),
    carbs: z.number().min(0),
    fat: z.number().min(0),
    fiber: z.number().min(0),
    sodium: z.number().min(0),
  })
  .partial()
  .strict();

const fields = {
  name: f.name(),
  category: f.id(),
  price: f.money(),
  description: f.text(2000).nullable(),
  cost: f.money().nullable(),
  sku: z.string().max(64).nullable(),
  image_url: f.url().nullable(),
  is_active: z.boolean(),
  is_available: z.boolean(),
  preparation_time_minutes: f.int(0, 24 * 60).nullable(),
  nutrition: nutrition.nullable(),
  allergens: f.tags(),
  tags: f.tags(),
  modifier_groups: z.array(f.id()).max(20),
  sort_order: f.int(-1_000_000, 1_000_000),
  /** the station its lines go to (a key); null: its category's station */
  station: z.string().min(1).max(64).nullable(),
  tax_rate: f.taxRate().nullable(),
  translations: f.translations(),
};

export const CreateMenuItem = z.object(fields).partial().required({ name: true, category: true, price: true });

export const UpdateMenuItem = z.object(fields).partial();

export const ListMenuItems = z.object({
  ...listParams(),
  category: f.id().optional(),
  is_available: q.bool().optional(),
  is_active: q.bool().optional(),
});
