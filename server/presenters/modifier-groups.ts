import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { ModifierGroupsTable } from '../db/tables/modifier-groups.table.ts';
import type { Modifier } from '../model/menu.ts';
import { named, unix } from '../model/schemas.ts';

export const ModifierSchema = named(
  'Modifier',
  z.object({
    name: z.string(),
    price_adjustment: z.number().int(),
    is_default: z.boolean(),
    is_available: z.boolean(),
    sort_order: z.number().int(),
  }),
);

export const ModifierGroupSchema = named(
  'ModifierGroup',
  z.object({
    id: z.string(),
    object: z.literal('modifier_group'),
    created: unix(),
    updated: unix(),
    name: z.string(),
    required: z.boolean(),
    min_selections: z.number().int(),
    max_selections: z.number().int(),
    modifiers: z.array(ModifierSchema),
  }),
);
export type ModifierGroup = z.output<typeof ModifierGroupSchema>;

export const DeletedModifierGroupSchema = named(
  'DeletedModifierGroup',
  z.object({ id: z.string(), object: z.literal('modifier_group'), deleted: z.literal(true), removed_from_menu_items: z.array(z.string()) }),
);

export function presentModifierGroup(row: Selectable<ModifierGroupsTable>): ModifierGroup {
  return {
    id: row.id,
    object: 'modifier_group',
    created: row.created,
    updated: row.updated,
    name: row.name,
    required: row.required === 1,
    min_selections: row.min_selections,
    max_selections: row.max_selections,
    modifiers: JSON.parse(row.modifiers) as Modifier[],
  };
}
