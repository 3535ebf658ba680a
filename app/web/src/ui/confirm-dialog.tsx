import type { ComponentChildren } from 'preact';
import { t } from '../lib/i18n.ts';
import { Button, Dialog, ErrorNote } from './kit.tsx';

// back office only (kit.tsx is shared with the guest pages and screens, which do not carry these texts)
/**
 * Asks before something that cannot be undone, or not easily (revoking, removing, deactivating):
 * the one confirmation of the back office. Cancel is the safe default and holds the focus.
 */
export function ConfirmDialog(props: { title: string; message: ComponentChildren; confirmLabel: string; open: boolean; busy?: boolean; error?: unknown; onConfirm: () => void; onClose: () => void }) {
  return (
    <Dialog title={props.title} open={props.open} onClose={props.onClose}>
      <p>{props.message}</p>
      <ErrorNote error={props.error} />
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
