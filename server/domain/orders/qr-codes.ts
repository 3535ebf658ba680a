import { randomToken } from '../../auth/keys.ts';
import type { Executor } from '../../db/records.ts';
import { insertRecord, updateRecord } from '../../db/records.ts';
import { ApiError, notFound } from '../../errors.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { seconds } from '../time.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';
import type { QrOrderType } from '../../model/orders.ts';

/** 32 base62 characters, ~190 random bits: a token cannot be guessed or walked. */
export const QR_TOKEN_LENGTH = 32;

export interface QrInput {
  table?: string | null;
  type?: QrOrderType;
  label?: string | null;
}

export async function createQrCode(trx: Executor, actor: Actor, input: QrInput) {
  const type = input.type ?? (input.table ? 'dine_in' : 'takeout');
  if (type === 'dine_in' && !input.table) throw new ApiError('parameter_missing', 'A dine_in QR code belongs to a table.', 'table');
  if (type === 'takeout' && input.table) throw new ApiError('parameter_invalid', 'A takeout QR code belongs to no table.', 'table');
  if (input.table) {
    const t = await trx.selectFrom('tables').select('id').where('restaurant_id', '=', actor.restaurantId).where('id', '=', input.table).executeTakeFirst();
    if (!t) throw notFound('table', input.table, 'table');
  }
  const now = seconds(actor);
  return insertRecord(trx, 'qr_codes', {
    id: newId(PREFIXES.qrCode, actor.now),
    restaurant_id: actor.restaurantId,
    token: randomToken(QR_TOKEN_LENGTH),
    type,
    table_id: input.table ?? null,
    label: input.label || null,
    is_active: 1,
    disabled_at: null,
    created: now,
    updated: now,
  });
}

export async function findQrCode(db: Executor, restaurantId: string, id: string) {
  return db.selectFrom('qr_codes').selectAll().where('restaurant_id', '=', restaurantId).where('id', '=', id).executeTakeFirst();
}

/** Disabling is final for the printed code and idempotent: a disabled code is returned as is. */
export async function disableQrCode(trx: Executor, actor: Actor, id: string) {
  const qr = await findQrCode(trx, actor.restaurantId, id);
  if (!qr) throw notFound('QR code', id);
  if (qr.is_active !== 1) return qr;
  const now = seconds(actor);
  return (await updateRecord(trx, 'qr_codes', qr, { is_active: 0, disabled_at: now, updated: now }))!;
}

/** The active QR code behind a token; a disabled or unknown token is the same 404. */
export async function resolveToken(db: Executor, token: string) {
  const qr = await db.selectFrom('qr_codes').selectAll().where('token', '=', token).executeTakeFirst();
  if (!qr || qr.is_active !== 1) throw notFound('QR code', token.length > 8 ? `${token.slice(0, 4)}…` : token, 'token');
  return qr;
}

/**
 * A guest may only see and add to an order opened from a QR code of the same table (or,
 * for a takeout code, from the same code). Anything else is answered like an unknown id.
 */
export async function assertGuestOrder(db: Executor, qr: { id: string; table_id: string | null }, order: OrderRow | undefined, id: string) {
  if (order?.qr_code_id) {
    if (order.qr_code_id === qr.id) return order;
    if (qr.table_id) {
      const opened = await db.selectFrom('qr_codes').select('table_id').where('id', '=', order.qr_code_id).executeTakeFirst();
      if (opened?.table_id === qr.table_id && order.table_id === qr.table_id) return order;
    }
  }
  throw notFound('order', id, 'orderId');
}
