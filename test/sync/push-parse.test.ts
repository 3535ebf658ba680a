import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePushPlainly, pushRequest } from '../../sync/protocol.ts';

/**
 * The cloud checks a push's changes by hand (parsePushPlainly) rather than having zod copy
 * each of 2,000 entries: whatever it takes, zod takes as the same value; whatever zod
 * refuses, it leaves to zod (which then says what is wrong).
 */
describe('a push checked by hand', () => {
  const change = () => ({
    op_id: 'chg_0123456789',
    origin: 'ep_abc',
    origin_seq: 7,
    table: 'orders',
    row_id: 'ord_1',
    op: 'update',
    data: { id: 'ord_1', restaurant_id: 'rst_1', notes: 'x' },
    fields: ['notes'],
    hlc: '0190f0a0b0c0.0001.hub1',
  });
  const push = (changes: unknown[], extra: object = {}) => ({ protocol: 5, epoch: 'ep_abc', after: 6, changes, pending: 3, heartbeat_ms: 2000, ...extra });

  it('takes a valid push as zod does, and leaves anything zod would refuse or change to zod', () => {
    expect(parsePushPlainly(push([change()]))).toEqual(pushRequest.parse(push([change()])));
    const compacted = { ...change(), fields: null, hlc: null, clocks: { '*': '0190f0a0b0c0.0001.hub1', notes: '0190f0a0b0c1.0000.cloud' } };
    expect(parsePushPlainly(push([compacted], { wait_ms: 500 }))).toEqual(pushRequest.parse(push([compacted], { wait_ms: 500 })));

    const odd = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.constant(''),
      fc.constant('x'.repeat(65)),
      fc.constant(-1),
      fc.constant(1.5),
      fc.constant([]),
      fc.constant(['a'.repeat(65)]),
      fc.constant({}),
      fc.constant('nope'),
      fc.string(),
      fc.integer(),
    );
    const keys = [...Object.keys(change()), 'clocks', 'extra'];
    const headerKeys = ['protocol', 'epoch', 'after', 'pending', 'heartbeat_ms', 'wait_ms', 'changes'];
    fc.assert(
      fc.property(fc.constantFrom(...keys), odd, fc.constantFrom(...headerKeys), odd, fc.boolean(), (key, value, hKey, hValue, inHeader) => {
        const c: Record<string, unknown> = change();
        if (value === undefined) delete c[key];
        else c[key] = value;
        const body: Record<string, unknown> = push([change(), c]);
        if (inHeader) body[hKey] = hValue;
        const byZod = pushRequest.safeParse(body);
        const byHand = parsePushPlainly(body);
        if (!byZod.success) expect(byHand).toBeUndefined();
        else if (byHand !== undefined) expect(byHand).toEqual(byZod.data);
      }),
      { numRuns: 2000 },
    );
  });
});
