import { scopesOfSession } from '../auth/roles.ts';
import type { Services } from '../services.ts';
import type { Credential, RealtimeClient } from './client.ts';

/** What a staff socket authenticated with, checked again whenever a credential may have ended. */

/** Tables whose changes (in the change log) can end a socket's credential: keys, and people. */
export const CREDENTIAL_TABLES = new Set(['api_keys', 'users']);

const sameSet = (a: ReadonlySet<string>, b: readonly string[]) => a.size === b.length && b.every((s) => a.has(s));

/**
 * The staff sockets among `clients` whose credential no longer holds: a revoked or deleted
 * key; a session revoked or expired, of a person deactivated, or whose role changed (their
 * socket holds the old role's scopes: it is closed and reconnects with the new ones).
 */
export async function lapsed(services: Services, clients: Iterable<RealtimeClient>): Promise<RealtimeClient[]> {
  const byKey = new Map<string, RealtimeClient[]>();
  const bySession = new Map<string, RealtimeClient[]>();
  for (const c of clients) {
    const p = c.principal;
    if (c.closed || !p || p.kind !== 'staff') continue;
    const [map, id] = p.credential.kind === 'key' ? [byKey, p.credential.keyId] : [bySession, p.credential.sessionId];
    map.set(id, [...(map.get(id) ?? []), c]);
  }
  const out: RealtimeClient[] = [];
  const db = services.db;
  const now = Math.floor(services.clock.now() / 1000);
  for (const ids of chunks([...byKey.keys()])) {
    const live = await db.selectFrom('api_keys').select(['id', 'scopes']).where('id', 'in', ids).where('revoked_at', 'is', null).execute();
    const ok = new Set(live.filter((k) => byKey.get(k.id)!.every((c) => c.principal?.kind === 'staff' && sameSet(c.principal.scopes, JSON.parse(k.scopes)))).map((k) => k.id));
    for (const id of ids) if (!ok.has(id)) out.push(...byKey.get(id)!);
  }
  for (const ids of chunks([...bySession.keys()])) {
    const rows = await db
      .selectFrom('staff_sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.id', 's.revoked_at', 's.expires_at', 's.restaurant_id', 'u.restaurant_id as user_restaurant', 'u.is_active', 'u.role', 's.via'])
      .where('s.id', 'in', ids)
      .execute();
    const ok = new Set(
      rows
        .filter((r) => r.revoked_at === null && Number(r.expires_at) > now && Number(r.is_active) === 1 && r.user_restaurant === r.restaurant_id)
        .filter((r) => bySession.get(r.id)!.every((c) => c.principal?.kind === 'staff' && sameSet(c.principal.scopes, scopesOfSession(r.role, r.via))))
        .map((r) => r.id),
    );
    for (const id of ids) if (!ok.has(id)) out.push(...bySession.get(id)!);
  }
  return out;
}

function* chunks<T>(list: T[], size = 500): Generator<T[]> {
  for (let i = 0; i < list.length; i += size) yield list.slice(i, i + size);
}
