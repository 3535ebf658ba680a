/** A stretch of the ticket list drawn as one piece, under a key that outlives its members. */
export interface Run<T> {
  key: number;
  tickets: T[];
}

/**
 * Cuts the list (in its order) into runs of at most `size` that keep their members from one draw
 * to the next: a ticket stays in the run it was in (`members`: id → run key, from the last cut)
 * while that run is still in one piece here; a ticket new to the list, or cut off from its run,
 * joins the run before it while that has room, else starts a run under a new key (`newKey`).
 * So a new order (the list's end) changes the last run only, a bumped ticket only its own run,
 * and no run's tickets are moved to another run (which would build their cards again).
 */
export function cutRuns<T extends { id: string }>(list: readonly T[], members: ReadonlyMap<string, number>, newKey: () => number, size: number): { runs: Run<T>[]; members: Map<string, number> } {
  const runs: Run<T>[] = [];
  const used = new Set<number>();
  const next = new Map<string, number>();
  let run: Run<T> | undefined;
  for (const tk of list) {
    const was = members.get(tk.id);
    if (run && was === run.key) run.tickets.push(tk);
    else if (was !== undefined && !used.has(was)) run = { key: was, tickets: [tk] };
    else if (run && run.tickets.length < size) run.tickets.push(tk);
    else run = { key: newKey(), tickets: [tk] };
    if (!used.has(run.key)) {
      used.add(run.key);
      runs.push(run);
    }
    next.set(tk.id, run.key);
  }
  return { runs, members: next };
}
