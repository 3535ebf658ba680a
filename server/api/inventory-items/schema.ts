import { z } from 'zod';
import { f } from '../../model/fields.ts';
import { listParams } from '../../http/query.ts';

/** A quantity in the item's unit, up to three decimals (grams of a kilo, millilitres of a litre). */
const amount = () =>
  z
    .number({ message: 'must be a number' })
    .min(0, 'must not be negative')
    .max(1_000_000, 'is too large')
    .refine((n) => Math.abs(n * 1000 - Math.round(n * 1000)) < 1e-6, 'has more than three decimals');

const fields = {
  name: f.name(),
  sku: z.string().max(64).nullable(),
  unit: z.string().trim().min(1).max(20),
  quantity: amount(),
  unit_cost: f.money(),
  reorder_level: amount(),
};

export const CreateInventoryItem = z.object(fields).partial().required({ name: true, unit: true, quantity: true, unit_cost: true });
export const UpdateInventoryItem = z.object(fields).partial();
export const ListInventoryItems = z.object(listParams());
