import '../ops.css';
import type { ComponentChildren } from 'preact';
import { useId, useState } from 'preact/hooks';
import { when } from '../lib/format.ts';
import { bytes, duration, settleConflict, type BackupHealth, type ConflictView, type SyncStatus } from '../lib/health.ts';
import { t } from '../lib/i18n.ts';
import { can } from '../lib/session.ts';
import { Badge, Button, Empty } from '../ui/kit.tsx';
import { FormDialog } from '../ui/form-dialog.tsx';

/** One line per fact: a term and what it is, read as a pair by screen readers too. */
export function Facts({ rows }: { rows: [string, ComponentChildren][] }) {
  return (
    <dl class="facts">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Where the cloud link stands; an unlinked hub is a quiet line, not a problem. */
export function SyncSummary({ status, detailed = false }: { status: SyncStatus; detailed?: boolean }) {
  if (!status.linked) return <p class="muted sync-state">{status.role === 'cloud' ? t('ops.sync.noHub') : t('ops.sync.notLinked')}</p>;
  const state = status.connected ? (
    <Badge tone="good">{t('ops.sync.connected')}</Badge>
  ) : (
    <Badge tone="warn">{status.role === 'cloud' ? t('ops.sync.hubSilent') : t('ops.sync.disconnected')}</Badge>
  );
  const rows: [string, ComponentChildren][] = [
    [t('ops.sync.state'), state],
    [t('ops.sync.lastSynced'), status.last_synced_at ? when(status.last_synced_at) : t('ops.never')],
    [t('ops.sync.lag'), status.lag_seconds > 0 ? duration(status.lag_seconds) : t('ops.sync.upToDate')],
    [t('ops.sync.pending'), status.pending_push || status.pending_pull ? t('ops.sync.pendingCounts', { push: status.pending_push, pull: status.pending_pull }) : t('ops.sync.nothingWaiting')],
  ];
  if (status.last_error) rows.push([t('ops.sync.lastError'), <span class="error-text">{status.last_error}</span>]);
  const r = status.repair;
  rows.push([
    t('ops.sync.same'),
    r.state === 'repairing' ? (
      <Badge tone="warn">{t('ops.sync.repairing')}</Badge>
    ) : r.state === 'diverged' ? (
      <Badge tone="warn">{t('ops.sync.diverged', { n: r.unconverged.length })}</Badge>
    ) : r.state === 'in_sync' && r.checked_at ? (
      t('ops.sync.checked', { when: when(r.checked_at) }) + (r.repaired_rows ? ` ${t('ops.sync.repaired', { n: r.repaired_rows })}` : '')
    ) : (
      t('ops.sync.notChecked')
    ),
  ]);
  if (detailed && status.cloud_url) rows.unshift([t('ops.sync.cloud'), status.cloud_url]);
  if (detailed && status.hub_id) rows.push([t('ops.sync.hubId'), <code>{status.hub_id}</code>]);
  return (
    <>
      {r.state === 'diverged' ? (
        <p class="warn-note" role="alert">
          {t('ops.sync.divergedNote', { rows: r.unconverged.map((u) => `${u.table} ${u.id}`).join(', ') })}
        </p>
      ) : null}
      <Facts rows={rows} />
    </>
  );
}

/** The last backup, or the warning that there has been none for 48 h. */
export function BackupSummary({ backups, more = [] }: { backups: BackupHealth; more?: [string, ComponentChildren][] }) {
  const rows: [string, ComponentChildren][] = [
    [
      t('ops.backup.last'),
      backups.last_success_at ? (
        <>
          {when(backups.last_success_at)} <span class="muted">({bytes(backups.last_size_bytes)})</span>
        </>
      ) : (
        t('ops.never')
      ),
    ],
  ];
  if (!backups.enabled) rows.push([t('ops.backup.nightly'), t('ops.backup.off')]);
  rows.push(...more);
  if (backups.last_error) rows.push([t('ops.backup.lastFailure'), <span class="error-text">{`${when(backups.last_failure_at)}: ${backups.last_error}`}</span>]);
  return (
    <>
      {backups.warning ? (
        <p class="warn-note" role="alert">
          {t('ops.backup.warning')}
        </p>
      ) : null}
      <Facts rows={rows} />
    </>
  );
}

/**
 * "Mark as settled" on one conflict, with an optional note in a small dialog; for those who may
 * change settings (owners, managers). `onSettled` takes it off the page's list at once.
 */
export function SettleConflict({ conflict, onSettled }: { conflict: ConflictView; onSettled: (id: string) => void }) {
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState('');
  const noteId = useId();
  if (!can('settings:write')) return null;
  const settle = async () => {
    await settleConflict(conflict.id, note);
    setOpen(false);
    onSettled(conflict.id);
  };
  return (
    <>
      <Button class="settle" onClick={() => setOpen(true)} aria-describedby={`conflict-${conflict.id}`}>
        {t('ops.settle.button')}
      </Button>
      {open ? (
        <FormDialog title={t('ops.settle.title')} onClose={() => setOpen(false)} onSubmit={settle} submitLabel={t('ops.settle.button')}>
          <p>{conflict.text}</p>
          <p class="hint">{t('ops.settle.explain')}</p>
          <div class="field">
            <label for={noteId}>{t('ops.settle.note')}</label>
            <textarea id={noteId} name="note" rows={3} maxLength={500} value={note} aria-describedby={`${noteId}-hint`} onInput={(e) => setNote((e.target as HTMLTextAreaElement).value)} />
            <small id={`${noteId}-hint`} class="hint">
              {t('ops.settle.noteHint')}
            </small>
          </div>
        </FormDialog>
      ) : null}
    </>
  );
}

/** A conflict's words, linked to its order or booking where there is one. */
export function ConflictText({ conflict }: { conflict: ConflictView }) {
  return (
    <span id={`conflict-${conflict.id}`}>
      {conflict.href ? <a href={conflict.href}>{conflict.text}</a> : conflict.text}
    </span>
  );
}

export function ConflictList({ conflicts, onSettled }: { conflicts: ConflictView[] | undefined; onSettled: (id: string) => void }) {
  if (!conflicts) return null;
  if (!conflicts.length) return <Empty>{t('ops.conflicts.none')}</Empty>;
  return (
    <ul class="plain-list conflicts">
      {conflicts.map((c) => (
        <li key={c.id} class="conflict">
          <div>
            <Badge tone="warn">{t('ops.conflicts.badge')}</Badge> <ConflictText conflict={c} /> <span class="muted">{when(c.created)}</span>
          </div>
          <SettleConflict conflict={c} onSettled={onSettled} />
        </li>
      ))}
    </ul>
  );
}
