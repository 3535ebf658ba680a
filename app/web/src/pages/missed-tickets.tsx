import { GET, PATCH } from '../lib/client.ts';
import { t } from '../lib/i18n.ts';
import { can } from '../lib/session.ts';
import { ErrorNote, Toggle, useAction, useLoad } from '../ui/kit.tsx';

/**
 * The venue's choice of printing, when the hub comes back, the kitchen tickets it missed while
 * the cloud took orders (`print_missed_tickets`, server/domain/printers/catch-up.ts). Saved as
 * soon as it is switched: one switch needs no form.
 */
export function MissedTickets() {
  const [settings, loadError, reload] = useLoad(async () => GET('/v1/settings'));
  const [save, busy, saveError] = useAction();
  if (!settings) return <ErrorNote error={loadError} />;
  return (
    <section class="card" aria-labelledby="missed-tickets">
      <h2 id="missed-tickets">{t('ops.printer.missedTitle')}</h2>
      <Toggle
        label={t('ops.printer.missedToggle')}
        checked={settings.print_missed_tickets}
        disabled={busy || !can('settings:write')}
        onChange={(v) => void save(async () => (await PATCH('/v1/settings', { body: { print_missed_tickets: v } }), await reload()))}
      />
      <p class="hint">{t('ops.printer.missedHint')}</p>
      <ErrorNote error={saveError} />
    </section>
  );
}
