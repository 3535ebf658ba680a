import { get, post } from '../lib/api.ts';
import { when } from '../lib/format.ts';
import { t, type Key } from '../lib/i18n.ts';
import { can } from '../lib/session.ts';
import { Badge, Button, Empty, ErrorNote, Loading, PageHeader, useAction, useLoad } from '../ui/kit.tsx';

interface Printer {
  id: string;
  name: string;
  transport: { type: string; host?: string; port?: number };
  stations: string[];
  prints_receipts: boolean;
  is_active: boolean;
  status: { state: string; detail: string | null; checked_at: number | null };
}

interface Job {
  id: string;
  created: number;
  kind: string;
  state: string;
  order: string | null;
  last_error: string | null;
  attempts: number;
}

/** The printers with what the dispatcher last saw of them, a test page each, and the jobs that failed. */
export function PrintersPage() {
  const [printers, error, reload] = useLoad(async () => (await get<{ data: Printer[] }>('/v1/printers', { limit: 100 })).data);
  const [failed, , reloadJobs] = useLoad(async () => (await get<{ data: Job[] }>('/v1/print_jobs', { state: 'failed', limit: 50 })).data);
  const [act, busy, actError] = useAction();
  const writable = can('printers:write');
  return (
    <>
      <PageHeader title={t('printers.title')} />
      <ErrorNote error={error ?? actError} />
      {!printers ? (
        <Loading />
      ) : printers.length === 0 ? (
        <Empty>{t('printers.none')}</Empty>
      ) : (
        <ul class="item-list">
          {printers.map((p) => (
            <li key={p.id} class="item-row">
              <div class="item-main">
                <strong>{p.name}</strong>
                <span class="muted">
                  {p.transport.host ? `${p.transport.host}:${p.transport.port ?? 9100}` : p.transport.type} · {p.stations.join(', ') || '—'}
                  {p.prints_receipts ? ` · ${t('printers.receipts')}` : ''}
                </span>
                <span>
                  <Badge tone={p.status.state === 'online' ? 'good' : p.status.state === 'unknown' ? 'neutral' : 'bad'}>{t(`printerState.${p.status.state}` as Key) ?? p.status.state}</Badge>{' '}
                  {p.status.detail ?? ''} {p.status.checked_at ? <span class="muted">({when(p.status.checked_at, 'time')})</span> : null}
                </span>
              </div>
              {writable ? (
                <div class="item-actions">
                  <Button disabled={busy} onClick={() => act(async () => (await post(`/v1/printers/${p.id}/test`, {}), await reload(), await reloadJobs()))} aria-label={t('printers.testNamed', { name: p.name })}>
                    {t('printers.test')}
                  </Button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <section class="card">
        <h2>{t('printers.failed')}</h2>
        {!failed?.length ? (
          <Empty>{t('printers.noFailed')}</Empty>
        ) : (
          <ul class="plain-list">
            {failed.map((j) => (
              <li key={j.id} class="job-line">
                <span>
                  {t(`printKind.${j.kind}` as Key)} · {when(j.created)} · {j.last_error ?? ''}
                  {j.order ? (
                    <>
                      {' '}
                      · <a href={`/app/orders/${j.order}`}>{t('printers.order')}</a>
                    </>
                  ) : null}
                </span>
                {writable ? (
                  <Button disabled={busy} onClick={() => act(async () => (await post(`/v1/print_jobs/${j.id}/reprint`, {}), await reloadJobs()))}>
                    {t('order.reprint')}
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
