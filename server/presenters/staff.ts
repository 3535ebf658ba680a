import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { UsersTable } from '../db/tables/users.table.ts';
import { named, unix } from '../model/schemas.ts';

export const StaffUserSchema = named(
  'StaffUser',
  z.object({
    id: z.string(),
    object: z.literal('staff_user'),
    created: unix(),
    updated: unix(),
    name: z.string(),
    email: z.string().nullable().describe('null: signs in by PIN only (no password sign-in)'),
    role: z.string(),
    hourly_rate: z.number().int().nullable(),
    is_active: z.boolean(),
    /** the back office's language for this person; null: the restaurant's */
    language: z.string().nullable(),
    /** can sign in to the back office (the hash itself never leaves the server) */
    has_password: z.boolean(),
    /** a PIN is set for quick sign-in on trusted tablets */
    has_pin: z.boolean(),
  }),
);
export type StaffUser = z.output<typeof StaffUserSchema>;

export function presentStaff(row: Selectable<UsersTable>): StaffUser {
  return {
    id: row.id,
    object: 'staff_user',
    created: row.created,
    updated: row.updated,
    name: row.name,
    email: row.email,
    role: row.role,
    hourly_rate: row.hourly_rate,
    is_active: row.is_active === 1,
    language: row.language ?? null,
    has_password: row.password_hash !== null,
    has_pin: row.pin_hash !== null,
  };
}
