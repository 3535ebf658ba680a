/**
 * Type-level test of the typed client, checked by `npm run typecheck` (never run): each
 * `@ts-expect-error` below is a mistake the client must refuse. If the client loosened and a
 * mistake type-checked, the directive itself would be reported unused and the check fail.
 */
import { DELETE, GET, PATCH, POST, getAll, patchChanged } from './client.ts';

export async function typeTest() {
  // the right calls type-check and answer the operation's success type
  const order = await GET('/v1/orders/{id}', { path: { id: 'ord_1' }, query: { 'expand[]': ['table'] } });
  // @ts-expect-error an order's status is one of the API's, not any string
  const status: typeof order.status = 'eaten';
  const tables = await getAll('/v1/tables', { query: { is_active: false } });
  const number: number = tables[0].number;
  await POST('/v1/auth/logout');
  await PATCH('/v1/menu_items/{id}', { path: { id: 'mi_1' }, body: { is_available: false } });
  await DELETE('/v1/tables/{id}', { path: { id: 'tbl_1' } });
  await patchChanged('/v1/tables/{id}', { path: { id: 'tbl_1' } }, { capacity: 4 }, { capacity: 2 });

  // @ts-expect-error a path that is not in the API
  await GET('/v1/orderz');
  // @ts-expect-error a path this method has no operation on
  await DELETE('/v1/orders');
  // @ts-expect-error a query key the operation does not take
  await GET('/v1/orders', { query: { statuz: 'placed' } });
  // @ts-expect-error a query value of the wrong type
  await GET('/v1/orders', { query: { limit: 'ten' } });
  // @ts-expect-error a body field the operation does not take
  await PATCH('/v1/menu_items/{id}', { path: { id: 'mi_1' }, body: { is_availble: false } });
  // @ts-expect-error a required body left out
  await POST('/v1/waitlist');
  // @ts-expect-error a path parameter left out
  await GET('/v1/orders/{id}');
  // @ts-expect-error a field the answer does not have
  void order.totl;
  // @ts-expect-error a list path getAll cannot page through (not a list)
  await getAll('/v1/settings');
  return { status, number };
}
