/**
 * A live view's loads over HTTP, kept right against its live messages. The server reads a
 * load's answer at one moment and the page gets it later; a message about something newer can
 * come in between and be on screen already (on a busy hub, CI saw a slow answer, read before an
 * order was placed, wipe that order off the floor screen for good: nothing sends it again). So
 * each load keeps the messages heard while it was on its way and applies them again over its
 * answer, and an answer that lands after a later load's is dropped as the older one (a view
 * loads at once and again when the feed confirms its topics: the two overlap).
 *
 * Messages are still applied at once by the view; this only decides what a load's answer may
 * replace. The last message about a record is its newest state (the feed sends them in order).
 */
export interface LiveLoads<M> {
  /** A message the view has just applied: kept for every load still on its way. */
  heard(message: M): void;
  /**
   * Reads with `read` and hands its answer to `apply` with the messages heard since the read
   * began (to be applied over it, in order); not at all when a later load has landed first.
   */
  load<T>(read: () => Promise<T>, apply: (answer: T, heardSince: readonly M[]) => void): Promise<void>;
}

export function liveLoads<M = never>(): LiveLoads<M> {
  let started = 0;
  let landed = 0;
  const onTheirWay = new Set<M[]>();
  return {
    heard(message) {
      for (const list of onTheirWay) list.push(message);
    },
    async load(read, apply) {
      const mine = ++started;
      const heard: M[] = [];
      onTheirWay.add(heard);
      try {
        const answer = await read();
        if (mine < landed) return;
        landed = mine;
        apply(answer, heard);
      } finally {
        onTheirWay.delete(heard);
      }
    },
  };
}
