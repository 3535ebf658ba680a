import { useEffect, useState } from 'preact/hooks';
import { GET, PATCH, POST } from '../lib/client.ts';
import { bytes, loadSystemHealth } from '../lib/health.ts';
import { when } from '../lib/format.ts';
import { t } from '../lib/i18n.ts';
import { can } from '../lib/session.ts';
import { FieldForm, ProblemNote, useFieldForm } from '../ui/field-form.tsx';
import { Button, ErrorNote, Field, Loading, Toggle, useAction, useLoad } from '../ui/kit.tsx';
import { DataTable } from '../ui/data-table.tsx';
import { BackupSummary } from './health-parts.tsx';

/** "0 30 4 * * *" → "04:30 every night"; anything fancier is shown as written. */
function scheduleWords(cron: string): string {
  const parts = cron.trim().split(/\s+/);
  const [sec, min, hour, ...rest] = parts.length === 6 ? parts : ['0', ...parts];
  if (/^\d+$/.test(min) && /^\d+$/.test(hour) && sec === '0' && rest.every((x) => x === '*')) {
    return t('ops.backup.daily', { time: `${hour.padStart(2, '0')}:${min.padStart(2, '0')}` });
  }
  return cron;
}

/** Settings → Backups: the nightly backup's folder and how long files are kept, the last one made, and "Back up now". */
export function BackupSettings() {
  const [health, healthError, reloadHealth] = useLoad(loadSystemHealth);
  const backups = health?.backups ?? null;
  const [saved, , , setSaved] = useLoad(async () => (backups ? GET('/v1/settings/backups') : null), [!!backups]);
  const [folder, , reloadFolder] = useLoad(async () => (backups ? GET('/v1/system/backups') : null), [!!backups]);
  const [form, setForm] = useState<{ enabled: boolean; dir: string; keep_days: string } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // the API tries the folder before it takes it: its refusal, said with the folder the reader typed
  const state = useFieldForm({ dir: t('ops.backup.dirRefused', { dir: form?.dir.trim() ?? '' }) });
  const [backUp, backingUp, backUpError] = useAction();
  useEffect(() => setForm(saved ? { enabled: saved.enabled, dir: saved.dir, keep_days: String(saved.keep_days) } : null), [saved]);

  if (!health) return healthError ? <ErrorNote error={healthError} /> : <Loading />;
  if (!backups) {
    return (
      <section class="card">
        <h2>{t('ops.backup.title')}</h2>
        <p class="muted">{t('ops.backup.none')}</p>
      </section>
    );
  }

  const submit = async () => {
    if (!form) return;
    setDone(null);
    const ok = await state.run(async () => setSaved(await PATCH('/v1/settings/backups', { body: { enabled: form.enabled, dir: form.dir, keep_days: Number(form.keep_days) } })));
    if (ok) {
      setDone(t('common.saved'));
      await Promise.all([reloadHealth(), reloadFolder()]);
    }
  };
  const now = async () => {
    setDone(null);
    let made: { file: string; size_bytes: number } | null = null;
    const ok = await backUp(async () => (made = await POST('/v1/system/backups')));
    if (ok && made) {
      const m = made as { file: string; size_bytes: number };
      setDone(t('ops.backup.made', { file: m.file, size: bytes(m.size_bytes) }));
    }
    await Promise.all([reloadHealth(), reloadFolder()]);
  };

  return (
    <>
      <section class="card" aria-labelledby="backup-last">
        <h2 id="backup-last">{t('ops.backup.lastTitle')}</h2>
        <BackupSummary
          backups={backups}
          more={
            backups.last_file
              ? [
                  [t('ops.backup.file'), <code>{backups.last_file}</code>],
                  [t('ops.backup.took'), t('ops.backup.ms', { n: backups.last_duration_ms ?? 0 })],
                ]
              : []
          }
        />
        <ErrorNote error={backUpError} />
        <div class="form-actions">
          <Button variant="primary" disabled={backingUp} onClick={now}>
            {backingUp ? t('ops.backup.running') : t('ops.backup.now')}
          </Button>
          {done ? (
            <span role="status" class="saved">
              {done}
            </span>
          ) : null}
        </div>
      </section>
      {folder ? (
        <section class="card" aria-labelledby="backup-kept">
          <h2 id="backup-kept">{t('ops.backup.keptTitle')}</h2>
          <DataTable
            rows={folder.files}
            rowKey={(f) => f.file}
            empty={t('ops.backup.keptNone')}
            columns={[
              { label: t('ops.backup.madeAt'), cell: (f) => when(f.created) },
              { label: t('ops.backup.size'), num: true, cell: (f) => bytes(f.size_bytes) },
              { label: t('ops.backup.file'), cell: (f) => <code>{f.file}</code> },
            ]}
          />
          <p class="hint">{t('ops.backup.restoreHint')}</p>
        </section>
      ) : null}
      {form && !can('backups:write') ? (
        <section class="card" aria-labelledby="backup-nightly">
          <h2 id="backup-nightly">{t('ops.backup.nightlyTitle')}</h2>
          <p>
            {form.enabled ? scheduleWords(saved!.schedule) : t('ops.backup.off')} · <code>{form.dir}</code>
          </p>
          <p class="hint">{t('ops.backup.ownerOnly')}</p>
        </section>
      ) : form ? (
        <FieldForm state={state} class="card settings-form" onSubmit={submit} aria-labelledby="backup-nightly">
          <h2 id="backup-nightly">{t('ops.backup.nightlyTitle')}</h2>
          <Toggle label={t('ops.backup.enabled')} checked={form.enabled} onChange={(v) => setForm({ ...form, enabled: v })} />
          <Field
            label={t('ops.backup.dir')}
            hint={t('ops.backup.dirHint')}
            name="dir"
            value={form.dir}
            required
            onInput={(e) => setForm({ ...form, dir: (e.target as HTMLInputElement).value })}
          />
          <Field
            label={t('ops.backup.keepDays')}
            type="number"
            min={1}
            max={3650}
            name="keep_days"
            value={form.keep_days}
            onInput={(e) => setForm({ ...form, keep_days: (e.target as HTMLInputElement).value })}
          />
          <p class="hint">
            {t('ops.backup.schedule')}: {form.enabled ? scheduleWords(saved!.schedule) : t('ops.backup.off')}
          </p>
          <ProblemNote state={state} />
          <div class="form-actions">
            <Button type="submit" variant="primary" disabled={state.busy}>
              {t('common.save')}
            </Button>
          </div>
        </FieldForm>
      ) : null}
    </>
  );
}
