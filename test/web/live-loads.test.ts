import { describe, expect, it } from 'vitest';
import { liveLoads } from '../../app/web/src/lib/live-loads.ts';

/** An answer the page is handed later, when the test says (a slow network, made certain). */
function later<T>() {
  let hand!: (v: T) => void;
  const answer = new Promise<T>((r) => (hand = r));
  return { read: () => answer, hand };
}

/** What a live view may take from a load that raced its messages (the floor screen's CI flake). */
describe('a live view loading over its messages', () => {
  it('applies the messages heard while a load was on its way over its answer, in order', async () => {
    const loads = liveLoads<string>();
    loads.heard('before the load: in its answer already');
    const slow = later<string[]>();
    const applied: [string[], readonly string[]][] = [];
    const landing = loads.load(slow.read, (answer, heard) => applied.push([answer, [...heard]]));
    loads.heard('order placed');
    loads.heard('order served');
    slow.hand(['read before the order']);
    await landing;
    expect(applied).toEqual([[['read before the order'], ['order placed', 'order served']]]);
  });

  it('drops an answer that lands after a later load has landed: it is the older one', async () => {
    const loads = liveLoads<string>();
    const first = later<string>();
    const second = later<string>();
    const shown: string[] = [];
    const one = loads.load(first.read, (a) => shown.push(a));
    const two = loads.load(second.read, (a) => shown.push(a));
    second.hand('newer');
    await two;
    first.hand('older');
    await one;
    expect(shown).toEqual(['newer']);
  });

  it('applies both when they land in the order they were made', async () => {
    const loads = liveLoads();
    const shown: string[] = [];
    await loads.load(async () => 'first', (a) => shown.push(a));
    await loads.load(async () => 'second', (a) => shown.push(a));
    expect(shown).toEqual(['first', 'second']);
  });

  it('keeps no messages for a load that failed, and the next load still lands', async () => {
    const loads = liveLoads<string>();
    await expect(loads.load(() => Promise.reject(new Error('hub out of reach')), () => {})).rejects.toThrow('hub out of reach');
    loads.heard('no load on its way');
    const shown: [string, readonly string[]][] = [];
    await loads.load(async () => 'again', (a, heard) => shown.push([a, [...heard]]));
    expect(shown).toEqual([['again', []]]);
  });
});
