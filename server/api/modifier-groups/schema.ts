import { z } from 'zod';
import { f } from '../../model/fields.ts';
import { listParams } from '../../http/query.ts';

const modifier = z.object({
  name: f.name(),
  price_adjustment: f.money().optional(),
  is_default: z.boolean().optional(),
  is_available: z.boolean().optional(),
  sort_order: f.int(-1_000_000, 1_000_000).optional(),
});

const fields = {
  name: f.name(),
  required: z.boolean(),
  min_selections: f.int(0, 100),
  max_selections: f.int(1, 100),
  modifiers: z.array(modifier).max(100),
};

export const CreateModifierGroup = z.object(fields).partial().required({ name: true });
export const UpdateModifierGroup = z.object(fields).partial();
export const ListModifierGroups = z.object(listParams());
