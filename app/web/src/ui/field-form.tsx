import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure } from '../lib/api.ts';
import { t } from '../lib/i18n.ts';
import { FieldProblemContext, FieldRefusal, type FieldProblem } from './field-problem.ts';
import { ErrorNote } from './kit.tsx';

// back office only (its texts are in i18n/forms)

interface Problem {
  field: FieldProblem | null;
  general: unknown;
  target: HTMLElement | null;
}

export interface FieldFormState {
  form: { current: HTMLFormElement | null };
  note: { current: HTMLDivElement | null };
  busy: boolean;
  problem: Problem | null;
  /** Runs a save; true when it went through, else its refusal is shown and focused. */
  run: (work: () => Promise<unknown>) => Promise<boolean>;
}

/**
 * How a back-office form says what was refused on Save, for a dialog (FormDialog) or a page's
 * form alike: next to the field the API named (its `param` is the field's `name`, or one of its
 * `also`), in the reader's language, with aria-invalid, and that field gets focus; a refusal of
 * no field goes to the form's note (ProblemNote), which gets focus. `invalid` words a refused value
 * of one field more exactly than its kind can (e.g. `max_selections` → "Must be at least 2").
 */
export function useFieldForm(invalid: Record<string, string> = {}): FieldFormState {
  const form = useRef<HTMLFormElement>(null);
  const note = useRef<HTMLDivElement>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  useEffect(() => {
    if (!problem) return;
    (problem.target ?? note.current)?.focus();
  }, [problem]);
  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setProblem(null);
    try {
      await work();
      return true;
    } catch (err) {
      if (form.current) setProblem(problemOf(err, form.current, invalid));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { form, note, busy, problem, run };
}

/** The form whose fields show the refusals of `state` (Field, SelectField and FieldSet read them). */
export function FieldForm({ state, onSubmit, children, ...attrs }: { state: FieldFormState; onSubmit: () => unknown; children: ComponentChildren; class?: string; 'aria-labelledby'?: string }) {
  return (
    <FieldProblemContext.Provider value={state.problem?.field ?? null}>
      <form
        ref={state.form}
        {...attrs}
        onSubmit={(e) => {
          e.preventDefault();
          void onSubmit();
        }}
      >
        {children}
      </form>
    </FieldProblemContext.Provider>
  );
}

/** Where a refusal of no field (a conflict, the network) is said, in the API's own words; focused when it is. */
export function ProblemNote({ state }: { state: FieldFormState }) {
  return (
    <div ref={state.note} tabIndex={-1}>
      <ErrorNote error={state.problem?.general} />
    </div>
  );
}

/**
 * The control a param names in this form: by its `name`, or a field that answers for it too;
 * else the field of the list or object it is part of (`enabled_events[2]` → `enabled_events`).
 */
function fieldFor(form: HTMLFormElement, param: string): { param: string; el: HTMLElement } | null {
  const PART = /(\[\d+\]|\.[^.[\]]+)$/;
  for (let p = param; ; ) {
    const esc = CSS.escape(p);
    const el = form.querySelector<HTMLElement>(`[name="${esc}"], [data-also~="${esc}"], [data-param="${esc}"]`);
    // a list of checkboxes is focused on its first box
    if (el) return { param: p, el: el instanceof HTMLFieldSetElement ? (el.querySelector<HTMLElement>('input, select, textarea') ?? el) : el };
    const up = p.replace(PART, '');
    if (up === p || !up) return null;
    p = up;
  }
}

function problemOf(err: unknown, form: HTMLFormElement, invalid: Record<string, string>) {
  const param = err instanceof FieldRefusal || err instanceof ApiFailure ? err.param : null;
  // no field named: a refusal of the whole request (a conflict, the network) in the API's own words
  if (param === null) return { field: null, general: err, target: null };
  const found = fieldFor(form, param);
  if (!found) return { field: null, general: new Error(t('form.refused')), target: null };
  const message = err instanceof FieldRefusal ? err.message : messageFor(err as ApiFailure, found.el, invalid[param] ?? invalid[found.param]);
  return { field: { param: found.param, message }, general: null, target: found.el };
}

/** A refusal in the reader's words, by its code and by the kind of field (the label beside it names the field). */
export function messageFor(err: ApiFailure, el: HTMLElement, specific: string | undefined): string {
  if (err.code === 'parameter_missing') return t('form.required');
  if (err.code === 'resource_conflict') return t('form.taken');
  if (err.code === 'url_not_allowed') return t('form.urlNotAllowed');
  if (specific) return specific;
  // the API's own checks of text length and presence (server/http/fields.ts)
  const longest = /must be at most (\d+) characters/.exec(err.message);
  if (longest) return t('form.tooLong', { max: Number(longest[1]) });
  const shortest = /must be at least (\d+) characters/.exec(err.message);
  if (shortest) return t('form.tooShort', { min: Number(shortest[1]) });
  if (/must not be empty/.test(err.message)) return t('form.required');
  if (!(el instanceof HTMLInputElement)) return t('form.invalid');
  if (el.type === 'email') return t('form.email');
  if (el.type === 'url') return t('form.url');
  if (el.type === 'number' || el.inputMode === 'numeric') {
    const { min, max } = el;
    if (min && max) return t('form.between', { min, max });
    if (min) return t('form.atLeast', { min });
    if (max) return t('form.atMost', { max });
    return t('form.number');
  }
  if (el.inputMode === 'decimal') return t('form.amount');
  return t('form.invalid');
}
