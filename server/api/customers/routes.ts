import { createCustomer, findCustomer, loadCustomers, updateCustomer } from '../../domain/customers/customers.ts';
import { mustExist } from '../../errors.ts';
import { mapPage, NEWEST_FIRST, paginate } from '../../http/pagination.ts';
import { defineRoute, idParam, type RouteSpec } from '../../http/route.ts';
import { CustomerSchema, presentCustomer } from '../../presenters/customers.ts';
import { CreateCustomer, ListCustomers, UpdateCustomer } from './schema.ts';
import { listOf } from '../../model/schemas.ts';

const tag = 'Customers';

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/customers',
    response: listOf(CustomerSchema),
    summary: 'List customers, newest first',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'customers:read',
    query: ListCustomers,
    handler: async (c) => {
      const { restaurantId } = c.actor();
      const qb = c.db.selectFrom('customers').select(['id', 'created']).where('restaurant_id', '=', restaurantId);
      const page = await paginate(qb, { ...c.query, keys: NEWEST_FIRST('customers'), url: '/v1/customers' });
      return mapPage(page, async (rows) => {
        const full = new Map((await loadCustomers(c.db, restaurantId, rows.map((r) => r.id))).map((r) => [r.id, r]));
        return rows.map((r) => presentCustomer(full.get(r.id)!));
      });
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/customers/:id',
    response: CustomerSchema,
    summary: 'Retrieve a customer with visits, total spent and loyalty points',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'customers:read',
    params: idParam('cus_ id'),
    handler: async (c) => {
      const row = mustExist(await findCustomer(c.db, c.actor().restaurantId, c.params.id), 'customer', c.params.id);
      return presentCustomer(row);
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/customers',
    response: CustomerSchema,
    summary: 'Create a customer (at least a name, an email or a phone; email and phone are unique)',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'customers:write',
    body: CreateCustomer,
    idempotent: true,
    status: 201,
    handler: async (c) => presentCustomer(await createCustomer(c.db, c.actor(), c.body)),
  }),

  defineRoute({
    method: 'patch',
    path: '/v1/customers/:id',
    response: CustomerSchema,
    summary: 'Update a customer; only the fields sent change',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'customers:write',
    params: idParam('cus_ id'),
    body: UpdateCustomer,
    handler: async (c) => presentCustomer(await c.services.tx.run((trx) => updateCustomer(trx, c.actor(), c.params.id, c.body))),
  }),
];
