import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { ApiFailure } from '../lib/api.ts';

/**
 * What a form met on its last Save, said next to the field it concerns: `param` is the API's
 * name of that field (a field declares it as its `name`, or in `also` for a parent such as
 * `transport` of `transport.host`). FormDialog provides it; Field, SelectField and FieldSet read it.
 */
export interface FieldProblem {
  param: string;
  message: string;
}

export const FieldProblemContext = createContext<FieldProblem | null>(null);

/** The message for the field known by these names, if the form's problem is with it. */
export function useFieldProblem(names: (string | undefined)[]): string | null {
  const p = useContext(FieldProblemContext);
  return p && names.includes(p.param) ? p.message : null;
}

/** A check made in the browser before anything is sent, reported the way the API reports one. */
export class FieldRefusal extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A form that leaves its empty rows out of a list it sends gets the API's refusals numbered by
 * what was sent: `modifiers[1].name` may be the third row on the screen. This renames such a
 * refusal to the row the reader sees (`shown[i]` is the screen row of the i-th row sent), so
 * the message sits under the field it concerns. Anything else passes through unchanged.
 */
export function onShownRow(err: unknown, list: string, shown: number[]): unknown {
  if (!(err instanceof ApiFailure) || !err.param?.startsWith(`${list}[`)) return err;
  const m = /^\[(\d+)\](.*)$/.exec(err.param.slice(list.length));
  const row = m ? shown[Number(m[1])] : undefined;
  return row === undefined ? err : new ApiFailure(err.status, err.code, err.message, `${list}[${row}]${m![2]}`);
}
