import { GET } from '../lib/client.ts';
import { money, when } from '../lib/format.ts';
import { t } from '../lib/i18n.ts';
import { can } from '../lib/session.ts';
import { Empty, ErrorNote, PageHeader, useLoad } from '../ui/kit.tsx';
import { DataTable } from '../ui/data-table.tsx';

/** The guest list with visits and spend, and what guests said. */
export function GuestsPage() {
  const [customers, error] = useLoad(async () => (await GET('/v1/customers', { query: { limit: 100 } })).data);
  const [feedback] = useLoad(async () => (can('feedback:read') ? (await GET('/v1/feedback', { query: { limit: 20 } })).data : []));
  const avg = feedback?.length ? feedback.reduce((s, f) => s + f.rating, 0) / feedback.length : null;
  return (
    <>
      <PageHeader title={t('guests.title')} />
      <ErrorNote error={error} />
      <div class="columns wide-left">
        <section class="card">
          <h2>{t('guests.customers')}</h2>
          <DataTable
            rows={customers}
            rowKey={(c) => c.id}
            empty={t('guests.none')}
            columns={[
              { label: t('staff.name'), cell: (c) => c.name ?? '—' },
              { label: t('guests.contact'), cell: (c) => [c.email, c.phone].filter(Boolean).join(' · ') || '—' },
              { label: t('guests.visits'), num: true, cell: (c) => c.total_visits },
              { label: t('guests.spent'), num: true, cell: (c) => money(c.total_spent) },
              { label: t('guests.since'), cell: (c) => when(c.first_seen, 'date') },
            ]}
          />
        </section>
        <section class="card">
          <h2>{t('guests.feedback')}</h2>
          {avg !== null ? <p class="stat-inline">{t('guests.average', { n: avg.toFixed(1) })}</p> : null}
          {!feedback?.length ? (
            <Empty>{t('guests.noFeedback')}</Empty>
          ) : (
            <ul class="plain-list">
              {feedback.map((f) => (
                <li key={f.id}>
                  <span aria-label={t('guests.stars', { n: f.rating })}>{'★'.repeat(f.rating)}{'☆'.repeat(Math.max(0, 5 - f.rating))}</span> <span class="muted">{when(f.created, 'date')}</span>
                  {f.comment ? <div>{f.comment}</div> : null}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}
