import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure } from '../lib/api.ts';
import { t } from '../lib/i18n.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { FieldProblemContext, FieldRefusal, type FieldProblem } from './field-problem.ts';
import { Button, Dialog, ErrorNote } from './kit.tsx';

// back office only (its texts are in i18n/forms)

export interface RemoveAction {
  /** the button's text in the dialog, e.g. "Remove table" */
  label: string;
  /** the confirmation's title and body */
  title: string;
  message: ComponentChildren;
  confirmLabel?: string;
  run: () => Promise<unknown>;
}

/**
 * The back office's add/edit dialog: a form with Cancel and Save (and, when given, a remove that
 * asks first). Focus is the Dialog's: it opens on the first field and goes back to the button
 * that opened it after Save, Cancel or Escape. `onSubmit` does the work, including closing; if it
 * throws, the refusal is shown next to the field the API named (its `param` is the field's
 * `name`), in the reader's language, and that field gets focus. `invalid` words a refused value
 * of one field more exactly than its kind can (e.g. `max_selections` → "Must be at least 2").
 */
export function FormDialog(props: {
  title: string;
  onClose: () => void;
  onSubmit: () => Promise<unknown>;
  submitLabel?: string;
  invalid?: Record<string, string>;
  remove?: RemoveAction | null;
  children: ComponentChildren;
}) {
  const form = useRef<HTMLFormElement>(null);
  const note = useRef<HTMLDivElement>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ field: FieldProblem | null; general: unknown; target: HTMLElement | null } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [removeError, setRemoveError] = useState<unknown>(null);

  useEffect(() => {
    if (!problem) return;
    (problem.target ?? note.current)?.focus();
  }, [problem]);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      await props.onSubmit();
    } catch (err) {
      if (form.current) setProblem(problemOf(err, form.current, props.invalid ?? {}));
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    setBusy(true);
    setRemoveError(null);
    try {
      await props.remove!.run();
      setConfirming(false);
    } catch (err) {
      setRemoveError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog title={props.title} open onClose={props.onClose}>
      <FieldProblemContext.Provider value={problem?.field ?? null}>
        <form ref={form} class="form-grid" onSubmit={submit}>
          {props.children}
          <div ref={note} tabIndex={-1}>
            <ErrorNote error={problem?.general} />
          </div>
          <div class="dialog-actions">
            {props.remove ? (
              <Button variant="danger" disabled={busy} onClick={() => (setRemoveError(null), setConfirming(true))}>
                {props.remove.label}
              </Button>
            ) : null}
            <Button onClick={props.onClose}>{t('common.cancel')}</Button>
            <Button type="submit" variant="primary" disabled={busy}>
              {props.submitLabel ?? t('common.save')}
            </Button>
          </div>
        </form>
      </FieldProblemContext.Provider>
      {props.remove ? (
        <ConfirmDialog
          title={props.remove.title}
          message={props.remove.message}
          confirmLabel={props.remove.confirmLabel ?? props.remove.label}
          open={confirming}
          busy={busy}
          error={removeError}
          onClose={() => setConfirming(false)}
          onConfirm={remove}
        />
      ) : null}
    </Dialog>
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
