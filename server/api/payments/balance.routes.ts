import { checkBalance } from '../../domain/payments/check-balance.ts';
import { mustExist } from '../../errors.ts';
import { defineRoute, idParam, type RouteSpec } from '../../http/route.ts';
import { OrderBalanceSchema, presentOrderBalance } from '../../presenters/order-balance.ts';
import { BalanceQuery } from './schema.ts';

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/orders/:id/balance',
    errors: ['resource_missing', 'state_conflict'],
    response: OrderBalanceSchema,
    summary: "A check's balance as the server computes it: total, paid, returned, due; per seat what was paid and what paying it records; with split=N the N even shares of the bill and which are paid; with items=oi_…,oi_… what paying exactly those lines records (oi_…:N: the line's next share of N, and its shares in split_items)",
    tag: 'Payments',
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'payments:read',
    params: idParam('ord_ id'),
    query: BalanceQuery,
    handler: async (c) => presentOrderBalance(mustExist(await checkBalance(c.db, c.actor(), c.params.id, { ways: c.query.split, items: c.query.items }), 'order', c.params.id)),
  }),
];
