import { useEffect, useState } from 'preact/hooks';
import { DELETE, GET, POST, getAll } from '../lib/client.ts';
import { when } from '../lib/format.ts';
import { t, type Key } from '../lib/i18n.ts';
import { live } from '../lib/live.ts';
import { can } from '../lib/session.ts';
import { Badge, Button, ErrorNote, PageHeader, useAction, useLoad } from '../ui/kit.tsx';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { DataTable } from '../ui/data-table.tsx';
import { JobList, JobState } from '../ui/job-list.tsx';
import { PrinterDialog, type Printer } from './printer-form.tsx';
import { PrintPreviewDialog } from './print-preview.tsx';
import { MissedTickets } from './missed-tickets.tsx';

interface Job {
  id: string;
  created: number;
  kind: string;
  state: string;
  printer: string;
  order: string | null;
  last_error: string | null;
  attempts: number;
  printed_at: number | null;
}

/** How many of the latest jobs the page lists, each with its preview. */
const RECENT_JOBS = 20;

/**
 * The printers with what the dispatcher last saw of them (added, edited and removed here), a
 * test page each, the latest jobs with a preview of their paper (a virtual printer's only
 * paper), and the jobs that failed.
 */
export function PrintersPage() {
  const d = usePrintersData();
  const { printers, writable } = d;
  return (
    <>
      <PageHeader title={t('printers.title')}>
        {writable ? (
          <Button variant="primary" onClick={() => d.setEditing('new')}>
            {t('ops.printer.new')}
          </Button>
        ) : null}
      </PageHeader>
      <ErrorNote error={d.error ?? d.actError} />
      <PrintersTable d={d} />
      {d.editing && printers && d.stations ? (
        <PrinterDialog
          printer={d.editing}
          printers={printers}
          stations={d.stations}
          onClose={() => d.setEditing(null)}
          onSaved={() => {
            d.setEditing(null);
            void d.reload();
          }}
        />
      ) : null}
      <ConfirmDialog
        title={t('ops.printer.removeNamed', { name: d.removing?.name ?? '' })}
        message={t('ops.printer.removeBody')}
        confirmLabel={t('common.remove')}
        open={d.removing !== null}
        busy={d.removeBusy}
        error={d.removeError}
        onClose={() => d.setRemoving(null)}
        onConfirm={d.confirmRemove}
      />
      {can('settings:read') ? <MissedTickets /> : null}
      <RecentJobs d={d} />
      {d.previewing ? (
        <PrintPreviewDialog job={d.previewing} title={t('ops.printJobs.previewOf', { kind: d.kindOf(d.previewing), printer: d.printerName(d.previewing.printer) })} onClose={() => d.setPreviewing(null)} />
      ) : null}
      <FailedJobs d={d} />
    </>
  );
}

/** The page's data: printers, stations and jobs, kept live, and what is being edited, removed or previewed. */
function usePrintersData() {
  const [printers, error, reload] = useLoad(async () => (await GET('/v1/printers', { query: { limit: 100 } })).data);
  const [failed, , reloadFailed] = useLoad(async () => (await GET('/v1/print_jobs', { query: { state: 'failed', limit: 50 } })).data);
  const [recent, , reloadRecent] = useLoad(async () => (await GET('/v1/print_jobs', { query: { limit: RECENT_JOBS } })).data);
  const reloadJobs = async () => void (await Promise.all([reloadFailed(), reloadRecent()]));
  const [previewing, setPreviewing] = useState<Job | null>(null);
  usePrintersLive(reload, reloadJobs);
  const [stations] = useLoad(async () => (can('menu:read') ? getAll('/v1/stations') : []));
  const [act, busy, actError] = useAction();
  const [editing, setEditing] = useState<Printer | 'new' | null>(null);
  const [removing, setRemoving] = useState<Printer | null>(null);
  const [remove, removeBusy, removeError, clearRemoveError] = useAction();
  const confirmRemove = async () => {
    if (removing && (await remove(() => DELETE('/v1/printers/{id}', { path: { id: removing.id } })))) {
      setRemoving(null);
      await reload();
      await reloadJobs();
    }
  };
  return {
    printers, error, reload, failed, recent, reloadJobs, previewing, setPreviewing, stations, act, busy, actError,
    editing, setEditing, removing, setRemoving, removeBusy, removeError, clearRemoveError, confirmRemove,
    writable: can('printers:write'),
    stationName: (key: string) => stations?.find((s) => s.key === key)?.name ?? key,
    printerName: (id: string) => printers?.find((p) => p.id === id)?.name ?? id,
    kindOf: (j: Job) => t(`printKind.${j.kind}` as Key),
  };
}
type PrintersData = ReturnType<typeof usePrintersData>;

function PrintersTable({ d }: { d: PrintersData }) {
  return (
    <DataTable
      rows={d.printers}
      rowKey={(p) => p.id}
      rowClass={(p) => (p.is_active ? '' : 'is-removed')}
      empty={t('printers.none')}
      label={t('printers.title')}
      columns={[
        { label: t('col.printer'), cell: (p) => <strong>{p.name}</strong> },
        {
          label: t('col.address'),
          cell: (p) => (
            <span class="muted">
              {p.transport.type === 'virtual' ? t('ops.printer.virtualShort') : `${p.transport.host}:${p.transport.port}`} · {p.stations.map(d.stationName).join(', ') || t('ops.printer.noStation')}
              {p.prints_receipts ? ` · ${t('printers.receipts')}` : ''}
              {p.is_active ? '' : ` · ${t('ops.printer.inactive')}`}
            </span>
          ),
        },
        {
          label: t('col.status'),
          cell: (p) => (
            <>
              <Badge tone={p.status.state === 'online' ? 'good' : p.status.state === 'unknown' ? 'neutral' : 'bad'}>{t(`printerState.${p.status.state}` as Key) ?? p.status.state}</Badge> {p.status.detail ?? ''}{' '}
              {p.status.checked_at ? <span class="muted">({when(p.status.checked_at, 'time')})</span> : null}
            </>
          ),
        },
      ]}
      actions={
        d.writable
          ? (p) => (
              <>
                <Button disabled={d.busy} onClick={() => d.act(async () => (await POST('/v1/printers/{id}/test', { path: { id: p.id } }), await d.reload(), await d.reloadJobs()))} aria-label={`${t('printers.test')}: ${p.name}`}>
                  {t('printers.test')}
                </Button>
                <Button onClick={() => d.setEditing(p)} aria-label={`${t('common.edit')}: ${p.name}`}>
                  {t('common.edit')}
                </Button>
                <Button variant="danger" onClick={() => (d.clearRemoveError(), d.setRemoving(p))} aria-label={`${t('common.remove')}: ${p.name}`}>
                  {t('common.remove')}
                </Button>
              </>
            )
          : null
      }
    />
  );
}

function RecentJobs({ d }: { d: PrintersData }) {
  return (
    <section class="card">
      <h2>{t('ops.printJobs.title')}</h2>
      <JobList
        jobs={d.recent}
        empty={t('ops.printJobs.none')}
        line={(j) => (
          <>
            {d.kindOf(j)} · {d.printerName(j.printer)} · <JobState state={j.state} /> {when(j.printed_at ?? j.created)}
          </>
        )}
        action={(j) =>
          j.kind !== 'drawer_kick' ? (
            <Button onClick={() => d.setPreviewing(j)} aria-label={`${t('ops.printJobs.preview')}: ${d.kindOf(j)}, ${d.printerName(j.printer)}, ${when(j.created)}`}>
              {t('ops.printJobs.preview')}
            </Button>
          ) : null
        }
      />
    </section>
  );
}

function FailedJobs({ d }: { d: PrintersData }) {
  return (
    <section class="card">
      <h2>{t('printers.failed')}</h2>
      <JobList
        jobs={d.failed}
        empty={t('printers.noFailed')}
        line={(j) => (
          <>
            {d.kindOf(j)} · {when(j.created)} · {j.last_error ?? ''}
            {j.order ? (
              <>
                {' '}
                · <a href={`/app/orders/${j.order}`}>{t('printers.order')}</a>
              </>
            ) : null}
          </>
        )}
        action={(j) =>
          d.writable ? (
            <Button disabled={d.busy} onClick={() => d.act(async () => (await POST('/v1/print_jobs/{id}/reprint', { path: { id: j.id } }), await d.reloadJobs()))}>
              {t('order.reprint')}
            </Button>
          ) : null
        }
      />
    </section>
  );
}

// A job moving on (printing, printed, failed) and what a printer answered come over /realtime
// (the `printers` topic): the lists follow without a reload. A burst (a table's tickets) reads
// them once; a (re)connection reads them again, since these messages are not replayed.
function usePrintersLive(reloadPrinters: () => unknown, reloadJobs: () => unknown) {
  useEffect(() => {
    let jobsDue = false;
    let printersDue = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      if (jobsDue) void reloadJobs();
      if (printersDue) void reloadPrinters();
      jobsDue = printersDue = false;
    };
    const soon = () => (timer ??= setTimeout(flush, 100));
    const stop = live.listen(
      ['printers'],
      (m) => {
        if (m.type === 'print_job') jobsDue = true;
        else if (m.type === 'printer_status') printersDue = true;
        else return;
        soon();
      },
      () => ((jobsDue = printersDue = true), soon()),
    );
    return () => (stop(), clearTimeout(timer));
  }, []);
}
