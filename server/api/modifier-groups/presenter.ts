import type { Selectable } from 'kysely';
import type { ModifierGroupsTable } from '../../db/tables/modifier-groups.table.ts';
import type { Modifier } from '../../domain/menu/modifier-groups.ts';

export function presentModifierGroup(row: Selectable<ModifierGroupsTable>) {
  return {
    id: row.id,
    object: 'modifier_group' as const,
    created: row.created,
    updated: row.updated,
    name: row.name,
    required: row.required === 1,
    min_selections: row.min_selections,
    max_selections: row.max_selections,
    modifiers: JSON.parse(row.modifiers) as Modifier[],
  };
}
