import type { ComponentChildren } from 'preact';
import { t } from '../lib/i18n.ts';
import { Button, Dialog } from './kit.tsx';

// back office only (kit.tsx is shared with the guest pages and screens, which do not carry these texts)
/** Asks before something that cannot be undone (revoking, removing): Cancel is the safe default. */
export function ConfirmDialog(props: { title: string; message: ComponentChildren; confirmLabel: string; open: boolean; busy?: boolean; onConfirm: () => void; onClose: () => void }) {
  return (
    <Dialog title={props.title} open={props.open} onClose={props.onClose}>
      <p>{props.message}</p>
      <div class="dialog-actions">
        <Button data-autofocus onClick={props.onClose}>
          {t('common.cancel')}
        </Button>
        <Button variant="danger" disabled={props.busy} onClick={props.onConfirm}>
          {props.confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
