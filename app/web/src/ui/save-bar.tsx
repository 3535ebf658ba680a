import { t } from '../lib/i18n.ts';
import { Button } from './kit.tsx';

/** A form's Save button, kept in view at the bottom, with "Saved" said once it went through. */
export function SaveBar({ disabled, saved }: { disabled: boolean; saved: boolean }) {
  return (
    <div class="sticky-actions">
      <Button type="submit" variant="primary" disabled={disabled}>
        {t('common.save')}
      </Button>
      {saved ? (
        <span role="status" class="saved">
          {t('common.saved')}
        </span>
      ) : null}
    </div>
  );
}
