import type { Selectable } from 'kysely';
import type { UsersTable } from '../../db/tables/users.table.ts';

export function presentStaff(row: Selectable<UsersTable>) {
  return {
    id: row.id,
    object: 'staff_user' as const,
    created: row.created,
    updated: row.updated,
    name: row.name,
    email: row.email,
    role: row.role,
    hourly_rate: row.hourly_rate,
    is_active: row.is_active === 1,
    language: row.language ?? null,
    /** can sign in to the back office (the hash itself never leaves the server) */
    has_password: row.password_hash !== null,
  };
}
