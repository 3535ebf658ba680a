import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { t } from '../lib/i18n.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { FieldForm, ProblemNote, useFieldForm } from './field-form.tsx';
import { Button, Dialog } from './kit.tsx';

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
 * throws, the refusal is shown as every back-office form shows one (ui/field-form.tsx: next to
 * its field, in the reader's language, focused); `invalid` is passed on to it.
 */
export function FormDialog(props: {
  title: string;
  onClose: () => void;
  onSubmit: () => Promise<unknown>;
  submitLabel?: string;
  /** false keeps Save off (nothing to save yet, e.g. no time free for a booking) */
  ready?: boolean;
  invalid?: Record<string, string>;
  remove?: RemoveAction | null;
  children: ComponentChildren;
}) {
  const state = useFieldForm(props.invalid);
  const [confirming, setConfirming] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [removeError, setRemoveError] = useState<unknown>(null);
  const busy = state.busy || removing;

  const remove = async () => {
    setRemoving(true);
    setRemoveError(null);
    try {
      await props.remove!.run();
      setConfirming(false);
    } catch (err) {
      setRemoveError(err);
    } finally {
      setRemoving(false);
    }
  };

  return (
    <Dialog title={props.title} open onClose={props.onClose}>
      <FieldForm state={state} class="form-grid" onSubmit={() => state.run(props.onSubmit)}>
        {props.children}
        <ProblemNote state={state} />
        <div class="dialog-actions">
          {props.remove ? (
            <Button variant="danger" disabled={busy} onClick={() => (setRemoveError(null), setConfirming(true))}>
              {props.remove.label}
            </Button>
          ) : null}
          <Button onClick={props.onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="primary" disabled={busy || props.ready === false}>
            {props.submitLabel ?? t('common.save')}
          </Button>
        </div>
      </FieldForm>
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
