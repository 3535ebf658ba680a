import { useEffect, useState } from 'preact/hooks';

/**
 * The fields of a sheet that belong to what it was opened for (a line, a check). A new target
 * shows a blank form from its first frame: reset in an effect alone, the form showed the last
 * target's fields for a frame, and what a quick hand typed before the effect ran was wiped
 * (a void's reason filled, then emptied: the Void button stayed grey).
 */
export function useFormFor<T, F extends object>(target: T, blank: (target: T) => F): [F, (patch: Partial<F>) => void] {
  const [state, setState] = useState(() => ({ for: target, form: blank(target) }));
  // kept in step, so a target opened again (the same line) starts blank too; what was typed for it stays
  useEffect(() => setState((s) => (s.for === target ? s : { for: target, form: blank(target) })), [target]);
  const form = state.for === target ? state.form : blank(target);
  const set = (patch: Partial<F>) => setState((s) => ({ for: target, form: { ...(s.for === target ? s.form : blank(target)), ...patch } }));
  return [form, set];
}
