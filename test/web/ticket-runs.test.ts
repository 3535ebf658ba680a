import { describe, expect, it } from 'vitest';
import { cutRuns } from '../../app/web/src/screens/runs.ts';

/** The kitchen screen's list in runs: each draw keeps every ticket in the run it was in. */
describe('cutting the kitchen list into runs', () => {
  const tickets = (ids: string) => ids.split('').map((id) => ({ id }));
  const keys = () => {
    let k = 0;
    return () => ++k;
  };
  const shape = (runs: { key: number; tickets: { id: string }[] }[]) => runs.map((r) => `${r.key}:${r.tickets.map((t) => t.id).join('')}`);

  it('fills runs up to their size in order, and a new ticket at the end changes only the last run', () => {
    const key = keys();
    const first = cutRuns(tickets('abcde'), new Map(), key, 2);
    expect(shape(first.runs)).toEqual(['1:ab', '2:cd', '3:e']);
    const next = cutRuns(tickets('abcdef'), first.members, key, 2);
    expect(shape(next.runs)).toEqual(['1:ab', '2:cd', '3:ef']);
    expect(next.runs[0]!.tickets).toEqual(first.runs[0]!.tickets);
    expect(shape(cutRuns(tickets('abcdefg'), next.members, key, 2).runs)).toEqual(['1:ab', '2:cd', '3:ef', '4:g']);
  });

  it('a bumped ticket leaves its run alone; no other ticket moves to another run', () => {
    const key = keys();
    const first = cutRuns(tickets('abcdef'), new Map(), key, 3);
    expect(shape(first.runs)).toEqual(['1:abc', '2:def']);
    // the oldest bumped: its run keeps the rest, the next run is untouched
    const bumped = cutRuns(tickets('bcdef'), first.members, key, 3);
    expect(shape(bumped.runs)).toEqual(['1:bc', '2:def']);
    // a whole run bumped: it is gone, the others keep their keys
    expect(shape(cutRuns(tickets('def'), bumped.members, key, 3).runs)).toEqual(['2:def']);
  });

  it('a ticket that moves in the order joins the run before it if that has room, else a run of its own', () => {
    const key = keys();
    const first = cutRuns(tickets('abcdef'), new Map(), key, 3);
    // c now sorts after f (its oldest line was done): run 1 has room for nothing more at the end, so c starts run 3
    expect(shape(cutRuns(tickets('abdefc'), first.members, key, 3).runs)).toEqual(['1:ab', '2:def', '3:c']);
    // a recalled ticket coming back in the middle joins the run before it while that has room
    expect(shape(cutRuns(tickets('abxcdef'), first.members, key, 4).runs)).toEqual(['1:abxc', '2:def']);
  });
});
