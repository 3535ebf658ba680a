import type { ButtonHTMLAttributes, ComponentChildren, InputHTMLAttributes } from 'preact';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure } from '../lib/api.ts';
import { t } from '../lib/i18n.ts';
import { useFieldProblem } from './field-problem.ts';

type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> & { variant?: 'primary' | 'danger' | 'quiet'; type?: 'button' | 'submit'; disabled?: boolean };

/** Every button is at least 44 px high and says what it does in visible text. */
export function Button({ variant, class: cls, type = 'button', ...rest }: ButtonProps) {
  return <button type={type} class={`btn ${variant ? `btn-${variant}` : ''} ${cls ?? ''}`} {...rest} />;
}

export function PageHeader({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <header class="page-header">
      <h1 tabIndex={-1}>{title}</h1>
      {children ? <div class="page-actions">{children}</div> : null}
    </header>
  );
}

interface FieldProps {
  label: string;
  hint?: string;
  error?: string | null;
  /** other API params this field answers for (e.g. `transport` for the host of `transport.host`) */
  also?: string[];
  children?: ComponentChildren;
}

/** The ids that describe a control: its error first (what to fix), then its hint. */
function described(id: string, error: string | null | undefined, hint: string | undefined) {
  const ids = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  return ids || undefined;
}

function FieldNotes({ id, error, hint }: { id: string; error: string | null | undefined; hint: string | undefined }) {
  return (
    <>
      {error ? (
        <small id={`${id}-error`} class="error-text">
          {error}
        </small>
      ) : null}
      {hint ? (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      ) : null}
    </>
  );
}

/**
 * A visible label tied to its control (the label names it for screen readers too). Its `name`
 * is the API's name for the value: inside a FormDialog, a refusal of that param is shown here.
 */
type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onInput' | 'value'> & { onInput?: (e: Event) => void; value?: string | number };

export function Field({ label, hint, error, also, children, ...input }: FieldProps & InputProps) {
  const id = useId();
  const problem = useFieldProblem([input.name as string | undefined, ...(also ?? [])]);
  const shown = error ?? problem;
  return (
    <div class={`field ${shown ? 'has-error' : ''}`}>
      <label for={id}>{label}</label>
      {children ?? <input id={id} aria-describedby={described(id, shown, hint)} aria-invalid={shown ? true : undefined} data-also={also?.join(' ')} {...(input as any)} />}
      <FieldNotes id={id} error={shown} hint={hint} />
    </div>
  );
}

export function SelectField({
  label,
  value,
  options,
  onChange,
  hint,
  name,
}: {
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (v: string) => void;
  hint?: string;
  name?: string;
}) {
  const id = useId();
  const problem = useFieldProblem([name]);
  return (
    <div class={`field ${problem ? 'has-error' : ''}`}>
      <label for={id}>{label}</label>
      <select id={id} name={name} value={value} aria-describedby={described(id, problem, hint)} aria-invalid={problem ? true : undefined} onChange={(e) => onChange((e.target as HTMLSelectElement).value)}>
        {options.map((o) => (
          <option value={o.value} key={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldNotes id={id} error={problem} hint={hint} />
    </div>
  );
}

export function TextArea({ label, value, onInput, rows = 3, name }: { label: string; value: string; onInput: (v: string) => void; rows?: number; name?: string }) {
  const id = useId();
  const problem = useFieldProblem([name]);
  return (
    <div class={`field ${problem ? 'has-error' : ''}`}>
      <label for={id}>{label}</label>
      <textarea id={id} name={name} rows={rows} value={value} aria-describedby={described(id, problem, undefined)} aria-invalid={problem ? true : undefined} onInput={(e) => onInput((e.target as HTMLTextAreaElement).value)} />
      <FieldNotes id={id} error={problem} hint={undefined} />
    </div>
  );
}

/** A group of checkboxes under a legend; `name` is the API's name for the list they make. */
export function FieldSet({ legend, name, hint, children }: { legend: string; name?: string; hint?: string; children: ComponentChildren }) {
  const id = useId();
  const problem = useFieldProblem([name]);
  return (
    <fieldset class="checks" data-param={name} aria-describedby={described(id, problem, hint)}>
      <legend>{legend}</legend>
      {children}
      <FieldNotes id={id} error={problem} hint={hint} />
    </fieldset>
  );
}

/** Checkboxes for picking some of a few (stations, days, modifier groups): `selected` is what is ticked. */
export function CheckList({ legend, name, hint, options, selected, onChange }: { legend: string; name?: string; hint?: string; options: { value: string; label: string }[]; selected: Set<string>; onChange: (next: Set<string>) => void }) {
  return (
    <FieldSet legend={legend} name={name} hint={hint}>
      {options.map((o) => (
        <label class="check" key={o.value}>
          <input
            type="checkbox"
            checked={selected.has(o.value)}
            onChange={(e) => {
              const next = new Set(selected);
              if ((e.target as HTMLInputElement).checked) next.add(o.value);
              else next.delete(o.value);
              onChange(next);
            }}
          />
          {o.label}
        </label>
      ))}
    </FieldSet>
  );
}

/** An on/off switch: a real checkbox (keyboard, screen readers) drawn as a switch. */
export function Toggle({ label, checked, onChange, disabled }: { label: string; checked: boolean; onChange: (v: boolean) => void; disabled?: boolean }) {
  return (
    <label class="toggle">
      <input type="checkbox" role="switch" checked={checked} disabled={disabled} onChange={(e) => onChange((e.target as HTMLInputElement).checked)} />
      <span class="toggle-track" aria-hidden="true" />
      <span class="toggle-label">{label}</span>
    </label>
  );
}

export function Badge({ tone = 'neutral', children }: { tone?: 'neutral' | 'good' | 'warn' | 'bad' | 'info'; children: ComponentChildren }) {
  return <span class={`badge badge-${tone}`}>{children}</span>;
}

export const Empty = ({ children }: { children: ComponentChildren }) => <p class="empty">{children}</p>;

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const msg = error instanceof ApiFailure ? error.message : error instanceof Error ? error.message : String(error);
  return (
    <p class="error-note" role="alert">
      {msg}
    </p>
  );
}

export const Loading = () => (
  <p class="loading" role="status">
    {t('common.loading')}
  </p>
);

/**
 * A modal dialog on the native <dialog>: focus is trapped and Escape closes it. It opens on its
 * first field (the native dialog would pick its Close button) and, once closed, gives focus
 * back to whatever opened it, so a keyboard user carries on where they were.
 */
export function Dialog({ title, open, onClose, children }: { title: string; open: boolean; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const id = useId();
  // the native dialog follows `open` in the same task as the render: were it left to an effect
  // after the paint, a dialog the page already counts as closed would stay modal a moment, and
  // the tap that should open it again would land on an inert page
  useLayoutEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      d.showModal();
      firstField(d)?.focus();
    }
    if (!open) {
      if (d.open) d.close();
      const back = opener.current;
      opener.current = null;
      if (back?.isConnected) back.focus();
    }
  }, [open]);
  // Escape is the page's to act on: the native dialog would close itself and tell the page a
  // task later, and a tap on the opener in between would find the page still thinking it open
  const shown = useRef(open);
  shown.current = open;
  // A page may drop the dialog from its tree instead of closing it (after Save, or on an Escape
  // it was allowed to hold back): same hand-back. The dialog leaves the top layer first: while
  // it is modal the page outside it is inert and refuses focus, and once it is gone from the
  // document the focus falls to the body. A layout effect: an effect runs after the paint, and
  // a dialog closed before that (a busy tablet, a quick Escape) would have no hand-back at all.
  useLayoutEffect(() => {
    const d = ref.current;
    return () => {
      shown.current = false;
      if (d?.open) d.close();
      if (opener.current?.isConnected) opener.current.focus();
    };
  }, []);
  const cancel = (e: Event) => {
    e.preventDefault();
    onClose();
  };
  // closed other than by the page (a browser that will not let Escape be held back): tell it,
  // unless it has opened the dialog again since
  const closed = () => {
    if (shown.current && !ref.current?.open) onClose();
  };
  return (
    <dialog ref={ref} aria-labelledby={id} onCancel={cancel} onClose={closed} class="dialog">
      {open ? (
        <>
          <div class="dialog-head">
            <h2 id={id}>{title}</h2>
            <Button variant="quiet" onClick={onClose}>
              {t('common.close')}
            </Button>
          </div>
          {children}
        </>
      ) : null}
    </dialog>
  );
}

/** The first field of a dialog's body (else its first button): where a person starts typing. */
function firstField(d: HTMLElement): HTMLElement | null {
  const usable = (el: HTMLElement) => !el.closest('.dialog-head') && !(el as HTMLInputElement).disabled && (el as HTMLInputElement).type !== 'hidden';
  const fields = [...d.querySelectorAll<HTMLElement>('[data-autofocus], input, select, textarea')].filter(usable);
  return fields[0] ?? [...d.querySelectorAll<HTMLElement>('button, a[href]')].filter(usable)[0] ?? null;
}

/** Loads once (and again when deps change); returns [data, error, reload]. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []): [T | undefined, unknown, () => Promise<void>, (v: T) => void] {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const run = async () => {
    try {
      setData(await load());
      setError(null);
    } catch (e) {
      setError(e);
    }
  };
  useEffect(() => {
    void run();
  }, deps);
  return [data, error, run, setData];
}

/** Runs an action, keeping its error for display and a busy flag to disable the button. */
export function useAction(): [(fn: () => Promise<unknown>) => Promise<boolean>, boolean, unknown, () => void] {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      return true;
    } catch (e) {
      setError(e);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return [run, busy, error, () => setError(null)];
}

export function Tabs({ tabs, current, onChange, label }: { tabs: { id: string; label: string }[]; current: string; onChange: (id: string) => void; label: string }) {
  return (
    <div class="tabs" role="tablist" aria-label={label}>
      {tabs.map((tab) => (
        <button
          type="button"
          role="tab"
          key={tab.id}
          id={`tab-${tab.id}`}
          aria-selected={tab.id === current}
          tabIndex={tab.id === current ? 0 : -1}
          class={`tab ${tab.id === current ? 'active' : ''}`}
          onClick={() => onChange(tab.id)}
          onKeyDown={(e) => {
            const i = tabs.findIndex((x) => x.id === current);
            const next = e.key === 'ArrowRight' ? tabs[(i + 1) % tabs.length] : e.key === 'ArrowLeft' ? tabs[(i - 1 + tabs.length) % tabs.length] : null;
            if (next) {
              e.preventDefault();
              onChange(next.id);
              document.getElementById(`tab-${next.id}`)?.focus();
            }
          }}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
