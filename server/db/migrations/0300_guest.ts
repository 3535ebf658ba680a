import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  void db;
}

export async function down(): Promise<void> {
  throw new Error('comanda migrations only go forward');
}
