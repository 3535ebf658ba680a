import { useEffect } from 'preact/hooks';
import { describeConflicts, loadSyncStatus } from '../lib/health.ts';
import { t } from '../lib/i18n.ts';
import { Button, ErrorNote, Loading, useLoad } from '../ui/kit.tsx';
import { ConflictList, SyncSummary } from './health-parts.tsx';

/** Settings → Sync: the cloud link as the hub sees it, and what the merge left for a person to look at. */
export function SyncSettings() {
  const [state, error, reload, setState] = useLoad(async () => {
    const status = await loadSyncStatus();
    return { status, conflicts: await describeConflicts(status.conflicts) };
  });
  // the link's numbers move by themselves; a manager watching the page sees them move
  useEffect(() => {
    const timer = window.setInterval(() => void reload(), 15_000);
    return () => clearInterval(timer);
  }, []);
  if (!state) return error ? <ErrorNote error={error} /> : <Loading />;
  const { status, conflicts } = state;
  return (
    <>
      <ErrorNote error={error} />
      <section class="card" aria-labelledby="sync-link">
        <h2 id="sync-link">{status.role === 'cloud' ? t('ops.sync.linkHub') : t('ops.sync.link')}</h2>
        <SyncSummary status={status} detailed />
        {!status.linked && status.role === 'hub' ? <p class="hint">{t('ops.sync.howToLink')}</p> : null}
        <Button onClick={() => void reload()}>{t('ops.refresh')}</Button>
      </section>
      <section class="card" aria-labelledby="sync-conflicts">
        <h2 id="sync-conflicts">{t('ops.conflicts.title')}</h2>
        <p class="hint">{t('ops.conflicts.hint')}</p>
        <ConflictList conflicts={conflicts} onSettled={(id) => setState({ status, conflicts: conflicts.filter((c) => c.id !== id) })} />
      </section>
    </>
  );
}
