import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { QrCodesTable } from '../../db/tables/qr-codes.table.ts';
import { createQrCode, disableQrCode, findQrCode } from '../../domain/orders/qr-codes.ts';
import { mustExist } from '../../errors.ts';
import { registerExpandable, presentWith } from '../../http/expand.ts';
import { f } from '../../model/fields.ts';
import { mapPage, NEWEST_FIRST, paginate } from '../../http/pagination.ts';
import { listParams, q } from '../../http/query.ts';
import { defineRoute, idParam, type Call, type RouteSpec } from '../../http/route.ts';
import { listOf, named, ref, unix } from '../../model/schemas.ts';
import { TableSchema } from '../../presenters/tables.ts';
import './refs.ts';
import { QR_ORDER_TYPES } from '../../model/orders.ts';

/** The address printed on the code: the guest page that opens /public/qr/{token}. */
export const qrUrl = (publicUrl: string, token: string) => `${publicUrl.replace(/\/$/, '')}/qr/${token}`;

export const QrCodeSchema = named(
  'QrCode',
  z.object({
    id: z.string(),
    object: z.literal('qr_code'),
    created: unix(),
    updated: unix(),
    token: z.string(),
    url: z.string().describe('the guest page to print'),
    type: z.enum(QR_ORDER_TYPES),
    table: ref(TableSchema).nullable(),
    label: z.string().nullable(),
    is_active: z.boolean(),
    disabled_at: unix().nullable(),
  }),
);
export type QrCode = z.output<typeof QrCodeSchema>;

export function presentQrCode(row: Selectable<QrCodesTable>, publicUrl: string): QrCode {
  return {
    id: row.id,
    object: 'qr_code',
    created: row.created,
    updated: row.updated,
    token: row.token,
    url: qrUrl(publicUrl, row.token),
    type: row.type,
    table: row.table_id,
    label: row.label,
    is_active: row.is_active === 1,
    disabled_at: row.disabled_at,
  };
}

registerExpandable('qr_code', { refs: { table: 'table' } });

const present = presentWith('qr_code', (r: Selectable<QrCodesTable>, c: Call<any, any, any>) => presentQrCode(r, c.services.config.publicUrl));

const tag = 'QR codes';

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/qr_codes',
    response: listOf(QrCodeSchema),
    summary: 'List QR codes, newest first',
    tag,
    auth: 'secret',
    // a QR token places live orders: a sandbox key never sees one
    sandbox: 'live_only',
    scope: 'tables:read',
    query: z.object({ ...listParams(), table: f.id().optional(), is_active: q.bool().optional() }),
    expand: 'qr_code',
    handler: async (c) => {
      let qb = c.db.selectFrom('qr_codes').selectAll().where('restaurant_id', '=', c.actor().restaurantId);
      if (c.query.table) qb = qb.where('table_id', '=', c.query.table);
      if (c.query.is_active !== undefined) qb = qb.where('is_active', '=', c.query.is_active ? 1 : 0);
      const page = await paginate(qb, { ...c.query, keys: NEWEST_FIRST('qr_codes'), url: '/v1/qr_codes' });
      return mapPage(page, (rows) => present(c, rows));
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/qr_codes/:id',
    response: QrCodeSchema,
    summary: 'Retrieve a QR code',
    tag,
    auth: 'secret',
    // a QR token places live orders: a sandbox key never sees one
    sandbox: 'live_only',
    scope: 'tables:read',
    params: idParam('qr_ id'),
    expand: 'qr_code',
    handler: async (c) => {
      const row = mustExist(await findQrCode(c.db, c.actor().restaurantId, c.params.id), 'QR code', c.params.id);
      return (await present(c, [row]))[0];
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/qr_codes',
    errors: ['resource_missing'],
    response: QrCodeSchema,
    summary: 'Create a QR code for a table (dine_in) or the counter (takeout); returns the URL to print',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'tables:write',
    body: z.object({
      table: f.id().nullable().optional(),
      type: z.enum(QR_ORDER_TYPES).optional(),
      label: f.name().nullable().optional(),
    }),
    expand: 'qr_code',
    idempotent: true,
    status: 201,
    handler: async (c) => (await present(c, [await createQrCode(c.db, c.actor(), c.body)]))[0],
  }),

  defineRoute({
    method: 'post',
    path: '/v1/qr_codes/:id/disable',
    response: QrCodeSchema,
    summary: 'Disable a QR code; guests scanning it are refused from now on',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'tables:write',
    params: idParam('qr_ id'),
    handler: async (c) => (await present(c, [await c.services.tx.run((trx) => disableQrCode(trx, c.actor(), c.params.id))]))[0],
  }),
];
