import type { TouchRule } from '../table-behaviour.ts';

/** Events new here are fanned out to this side's endpoints (sync/follow-ups/events.ts). */
export const eventsTouched: TouchRule = {
  after(t, _c, row, inserted) {
    if (inserted) t.events.push(row);
  },
};
