import type { Executor } from '../../db/records.ts';
import { insertRecord } from '../../db/records.ts';
import { ApiError } from '../../errors.ts';
import { hashApiKey, keyPrefix, makeApiKey, type KeyKind } from '../../auth/keys.ts';
import { holdsAll } from '../../auth/roles.ts';
import { isScope, SCOPES, WIDGET_SCOPES } from '../../auth/scopes.ts';
import { newId, PREFIXES } from '../../ids.ts';

export interface NewKey {
  restaurantId: string;
  kind: KeyKind;
  livemode: boolean;
  scopes?: string[];
  name?: string;
  /**
   * Who hands the key out: the scopes of the caller making it (a key or a session), or
   * 'operator' for the machine's owner (provisioning, the CLI on the hub) and for a pairing
   * code, whose scopes were checked against its maker when it was made. A key is given only
   * scopes its grantor holds, whatever its kind.
   */
  grantedBy: ReadonlySet<string> | 'operator';
  /** a paired screen's key: its station, or '*' for every station (api_keys.screen) */
  screen?: string;
}

/** Creates a key and returns it in full: the only time it is ever visible. */
export async function createApiKey(trx: Executor, nowMs: number, input: NewKey) {
  const scopes = input.scopes ?? (input.kind === 'widget' ? WIDGET_SCOPES : [...SCOPES]);
  const bad = scopes.find((s) => !isScope(s));
  if (bad) throw new ApiError('parameter_invalid', `Unknown scope '${bad}'. Known scopes: ${SCOPES.join(', ')}`, 'scopes');
  if (input.kind === 'widget') {
    const outside = scopes.find((s) => !(WIDGET_SCOPES as string[]).includes(s));
    if (outside) throw new ApiError('parameter_invalid', `A widget key can only hold ${WIDGET_SCOPES.join(', ')}.`, 'scopes');
  }
  if (input.grantedBy !== 'operator' && !holdsAll(input.grantedBy, scopes)) {
    const held = input.grantedBy;
    const missing = scopes.filter((s) => !held.has(s));
    throw new ApiError('insufficient_scope', `A key can only be given scopes its creator holds (missing: ${missing.join(', ')}).`, 'scopes');
  }
  const key = makeApiKey(input.kind, input.livemode);
  const now = Math.floor(nowMs / 1000);
  const row = await insertRecord(trx, 'api_keys', {
    id: newId(PREFIXES.apiKey, nowMs),
    restaurant_id: input.restaurantId,
    kind: input.kind,
    livemode: input.livemode ? 1 : 0,
    hash: hashApiKey(key),
    prefix: keyPrefix(key),
    name: input.name ?? null,
    scopes: JSON.stringify(scopes),
    screen: input.screen ?? null,
    last_used_at: null,
    revoked_at: null,
    created: now,
    updated: now,
  });
  return { id: row.id, key, scopes, livemode: input.livemode, kind: input.kind };
}
