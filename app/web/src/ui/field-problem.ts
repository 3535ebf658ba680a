import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

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
