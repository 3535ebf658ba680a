import type { Kysely } from 'kysely';
import { deleteRecord, updateRecord, type Executor } from '../server/db/records.ts';
import type { DB } from '../server/db/schema.ts';
import { loyaltyPoints } from '../server/model/sales-rules.ts';
import type { ApplyContext, RemoteBatchHook } from './apply-context.ts';
import { recordConflict } from './record-conflict.ts';

export const CUSTOMER_MERGE = 'customer_merge';
/** a merged customer's other email or phone, which the survivor has no room for */
export const CUSTOMER_CONTACT = 'customer_contact';

/** Rows that name a customer, repointed to the survivor of a merge. */
const REFERRING = ['orders', 'reservations', 'waitlist_entries'] as const;

type Customer = DB['customers'];

/**
 * Declared by the sync feature (sync/feature.ts), after the features whose follow-ups write
 * orders and roll-ups: the references and roll-ups it moves are then all in place.
 */
export const customersAfterBatch: RemoteBatchHook = {
  name: 'sync-customer-merge',
  afterBatch: (trx, ctx, t) => mergeCustomers(trx, ctx, t, { orders: [...t.orders.keys()], reservations: [...t.reservations] }),
};

/**
 * The same guest made on both sides while apart (a phone booking on the hub, a web order on the
 * cloud) is one customer again once the two meet: a customer this batch brought that shares a
 * normalised email or phone with another is merged with it, by the rules that match a guest
 * (server/domain/customers/match-customer.ts). The survivor is the lower id, so both nodes pick
 * the same one whichever sees the pair first; it learns the details it lacked, every order,
 * booking and waitlist entry of the other points to it, its visits and spend are added up (and
 * its points follow), and the other is deleted (a tombstone, which wins on both sides). Each
 * merge is listed in the status (`customer_merge`). The writes are this node's own changes, so
 * they travel; the other node, if it merged too, made the same ones.
 */
export async function mergeCustomers(
  trx: Executor,
  ctx: ApplyContext,
  t: { customers: Set<string>; repointed: Map<string, string> },
  referring: { orders: string[]; reservations: string[] },
): Promise<void> {
  // one look for the whole batch first: most customers a batch brings have no twin, and asking
  // for each (it and its twin, then each order's customer) cost two round trips a customer
  const brought = await customersIn(trx, ctx, [...t.customers]);
  const keys = { email: new Set<string>(), phone: new Set<string>() };
  for (const c of brought.values()) {
    if (c.email) keys.email.add(c.email);
    if (c.phone) keys.phone.add(c.phone);
  }
  const sharing = new Map<string, number>();
  for (const c of await sharingKeys(trx, ctx, keys)) {
    if (c.email) sharing.set(`e:${c.email}`, (sharing.get(`e:${c.email}`) ?? 0) + 1);
    if (c.phone) sharing.set(`p:${c.phone}`, (sharing.get(`p:${c.phone}`) ?? 0) + 1);
  }
  const mayHaveTwin = (c: Customer) => (c.email !== null && (sharing.get(`e:${c.email}`) ?? 0) > 1) || (c.phone !== null && (sharing.get(`p:${c.phone}`) ?? 0) > 1);
  for (const id of [...t.customers].sort()) {
    const first = brought.get(id);
    if (!first || !mayHaveTwin(first)) continue;
    for (;;) {
      const me = await customer(trx, ctx, id);
      if (!me || (!me.email && !me.phone)) break;
      const twin = await trx
        .selectFrom('customers')
        .selectAll()
        .where('restaurant_id', '=', ctx.restaurantId)
        .where('id', '!=', me.id)
        .where((eb) => eb.or([...(me.email ? [eb('email', '=', me.email)] : []), ...(me.phone ? [eb('phone', '=', me.phone)] : [])]))
        .orderBy('id')
        .executeTakeFirst();
      if (!twin) break;
      const [survivor, loser] = me.id < twin.id ? [me, twin] : [twin, me];
      await merge(trx, ctx, survivor, loser, me.email && me.email === twin.email ? 'email' : 'phone');
    }
  }
  // the other side merged first and this node got its changes before it saw the pair: the rows
  // it moved from a customer now gone tell of the merge, which is listed here too
  for (const [from, to] of t.repointed) {
    if (!(await customer(trx, ctx, from)) && (await customer(trx, ctx, to))) {
      await recordConflict(trx, ctx, CUSTOMER_MERGE, 'customers', [to, from], { survivor: to, merged: from, matched_by: null });
    }
  }
  // rows that arrived after their customer was merged away here (they were made apart)
  for (const table of ['orders', 'reservations'] as const) {
    const ids = referring[table];
    if (ids.length === 0) continue;
    const rows = await trx.selectFrom(table).select(['id', 'customer_id']).where('id', 'in', ids).where('customer_id', 'is not', null).execute();
    const present = await customersIn(trx, ctx, [...new Set(rows.map((r) => r.customer_id!))]);
    for (const r of rows) {
      if (present.has(r.customer_id!)) continue;
      const survivor = await survivorOf(trx, ctx, r.customer_id!);
      if (survivor) await moveReferences(trx, ctx, r.customer_id!, survivor);
    }
  }
}

/** The restaurant's customers of these ids, by id (500 at a time). */
async function customersIn(trx: Executor, ctx: ApplyContext, ids: string[]): Promise<Map<string, Customer>> {
  const out = new Map<string, Customer>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = (await trx.selectFrom('customers').selectAll().where('restaurant_id', '=', ctx.restaurantId).where('id', 'in', ids.slice(i, i + 500)).execute()) as Customer[];
    for (const r of rows) out.set(r.id, r);
  }
  return out;
}

/** The restaurant's customers with one of these emails or phones (each one's email and phone). */
async function sharingKeys(trx: Executor, ctx: ApplyContext, keys: { email: Set<string>; phone: Set<string> }): Promise<{ email: string | null; phone: string | null }[]> {
  // by id: a customer found by its email and again by its phone is one
  const out = new Map<string, { email: string | null; phone: string | null }>();
  for (const [column, set] of [['email', keys.email], ['phone', keys.phone]] as const) {
    const all = [...set];
    for (let i = 0; i < all.length; i += 500) {
      const rows = await trx.selectFrom('customers').select(['id', 'email', 'phone']).where('restaurant_id', '=', ctx.restaurantId).where(column, 'in', all.slice(i, i + 500)).execute();
      for (const r of rows) out.set(r.id, r);
    }
  }
  return [...out.values()];
}

const customer = (trx: Executor, ctx: ApplyContext, id: string) =>
  trx.selectFrom('customers').selectAll().where('restaurant_id', '=', ctx.restaurantId).where('id', '=', id).executeTakeFirst() as Promise<Customer | undefined>;

/** The customer a merged-away one became, from this node's record of the merge (followed through chains). */
async function survivorOf(trx: Executor, ctx: ApplyContext, loser: string): Promise<string | null> {
  let id = loser;
  for (let hops = 0; hops < 10; hops++) {
    const rows = await trx
      .selectFrom('sync_conflicts')
      .select('detail')
      .where('restaurant_id', '=', ctx.restaurantId)
      .where('kind', '=', CUSTOMER_MERGE)
      .where('row_ids', 'like', `%"${id}"%`)
      .execute();
    const next = rows.map((r) => JSON.parse(r.detail) as { survivor: string; merged: string }).find((d) => d.merged === id)?.survivor;
    if (!next) return id === loser ? null : id;
    id = next;
  }
  return id;
}

async function merge(trx: Executor, ctx: ApplyContext, survivor: Customer, loser: Customer, matchedBy: 'email' | 'phone'): Promise<void> {
  // the other first: a node that receives these changes sees it gone before the survivor's new details
  await deleteRecord(trx, 'customers', { id: loser.id, restaurant_id: ctx.restaurantId });
  const learned: Record<string, unknown> = {};
  if (!survivor.email && loser.email) learned.email = loser.email;
  if (!survivor.phone && loser.phone) learned.phone = loser.phone;
  if (!survivor.name && loser.name) learned.name = loser.name;
  if (Number(loser.first_seen) < Number(survivor.first_seen)) learned.first_seen = loser.first_seen;
  if (Object.keys(learned).length) await updateRecord(trx, 'customers', { id: survivor.id, restaurant_id: ctx.restaurantId }, learned);
  await moveReferences(trx, ctx, loser.id, survivor.id);
  await recordConflict(trx, ctx, CUSTOMER_MERGE, 'customers', [survivor.id, loser.id], { survivor: survivor.id, merged: loser.id, matched_by: matchedBy });
  // a customer holds one email and one phone: the other's different one is not dropped in
  // silence but listed for a person, who keeps the right one in the back office
  const other: Record<string, string> = {};
  if (survivor.email && loser.email && survivor.email !== loser.email) other.email = loser.email;
  if (survivor.phone && loser.phone && survivor.phone !== loser.phone) other.phone = loser.phone;
  if (Object.keys(other).length) {
    const kept = Object.fromEntries(Object.keys(other).map((k) => [k, survivor[k as 'email' | 'phone']]));
    await recordConflict(trx, ctx, CUSTOMER_CONTACT, 'customers', [survivor.id, loser.id], { survivor: survivor.id, merged: loser.id, kept, other });
  }
}

/** Every row naming `from` names `to`; the roll-ups move with them, and the survivor's points follow its spend. */
async function moveReferences(trx: Executor, ctx: ApplyContext, from: string, to: string): Promise<void> {
  const db = trx as Kysely<DB>;
  for (const table of REFERRING) {
    const rows = await db.selectFrom(table).select('id').where('restaurant_id', '=', ctx.restaurantId).where('customer_id', '=', from).execute();
    for (const r of rows) await updateRecord(trx, table, { id: r.id, restaurant_id: ctx.restaurantId }, { customer_id: to });
  }
  await db.updateTable('analytics_order_facts').set({ customer_id: to }).where('restaurant_id', '=', ctx.restaurantId).where('customer_id', '=', from).execute();
  const gone = await db.deleteFrom('analytics_customer_totals').where('customer_id', '=', from).returning(['visits', 'total_spent']).executeTakeFirst();
  if (gone) {
    await db
      .insertInto('analytics_customer_totals')
      .values({ customer_id: to, restaurant_id: ctx.restaurantId, visits: gone.visits, total_spent: gone.total_spent })
      .onConflict((oc) =>
        oc.column('customer_id').doUpdateSet((eb) => ({
          visits: eb('analytics_customer_totals.visits', '+', eb.ref('excluded.visits')),
          total_spent: eb('analytics_customer_totals.total_spent', '+', eb.ref('excluded.total_spent')),
        })),
      )
      .execute();
  }
  const totals = await db.selectFrom('analytics_customer_totals').select('total_spent').where('customer_id', '=', to).executeTakeFirst();
  const survivor = await customer(trx, ctx, to);
  const points = loyaltyPoints(Number(totals?.total_spent ?? 0));
  if (survivor && Number(survivor.loyalty_points) !== points) await updateRecord(trx, 'customers', { id: to, restaurant_id: ctx.restaurantId }, { loyalty_points: points });
}
