import { useState } from 'preact/hooks';
import { DELETE, GET, PATCH, POST, type Body } from '../lib/client.ts';
import { when } from '../lib/format.ts';
import { t } from '../lib/i18n.ts';
import { can } from '../lib/session.ts';
import { Badge, Button, ErrorNote, Field, PageHeader, useAction, useLoad } from '../ui/kit.tsx';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { DataTable } from '../ui/data-table.tsx';
import { FormDialog } from '../ui/form-dialog.tsx';

interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  enabled_events: string[];
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
}

/** Endpoints, their signing secrets, and every event's deliveries with each attempt, resendable. */
export function WebhooksPage() {
  const [endpoints, error, reload] = useLoad(async () => (await GET('/v1/webhook_endpoints', { query: { limit: 100 } })).data);
  const [events, , reloadEvents] = useLoad(async () => (can('events:read') ? (await GET('/v1/events', { query: { limit: 25 } })).data : []));
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Endpoint | null>(null);
  const [act, busy, actError] = useAction();
  const writable = can('webhooks:write');

  return (
    <>
      <PageHeader title={t('webhooks.title')}>
        {writable ? (
          <Button variant="primary" onClick={() => setAdding(true)}>
            {t('webhooks.new')}
          </Button>
        ) : null}
      </PageHeader>
      <ErrorNote error={error ?? actError} />
      {secret ? (
        <section class="card secret-card">
          <h2>{t('webhooks.secret')}</h2>
          <p>{t('keys.showOnce')}</p>
          <div class="secret-row">
            <label class="sr-only" for="wh-secret">
              {t('webhooks.secret')}
            </label>
            <input id="wh-secret" readOnly value={secret} onFocus={(e) => (e.target as HTMLInputElement).select()} />
            <Button onClick={() => setSecret(null)}>{t('keys.done')}</Button>
          </div>
        </section>
      ) : null}
      <DataTable
        rows={endpoints}
        rowKey={(e) => e.id}
        empty={t('webhooks.none')}
        label={t('webhooks.title')}
        columns={[
          { label: t('col.url'), cell: (e) => <strong class="break">{e.url}</strong> },
          { label: t('col.events'), cell: (e) => <span class="muted">{e.enabled_events.join(', ')}</span> },
          {
            label: t('col.status'),
            cell: (e) => (
              <>
                <Badge tone={e.status === 'enabled' ? 'good' : 'bad'}>{e.status === 'enabled' ? t('webhooks.enabled') : t('webhooks.disabled')}</Badge> {e.disabled_reason ?? ''}
              </>
            ),
          },
        ]}
        actions={
          writable
            ? (e) => (
                <>
                  <Button disabled={busy} onClick={() => act(async () => (await PATCH('/v1/webhook_endpoints/{id}', { path: { id: e.id }, body: { status: e.status === 'enabled' ? 'disabled' : 'enabled' } }), await reload()))}>
                    {e.status === 'enabled' ? t('webhooks.disable') : t('webhooks.enable')}
                  </Button>
                  <Button disabled={busy} onClick={() => act(async () => setSecret((await POST('/v1/webhook_endpoints/{id}/roll_secret', { path: { id: e.id } })).secret ?? null))}>
                    {t('webhooks.roll')}
                  </Button>
                  <Button variant="quiet" disabled={busy} onClick={() => setRemoving(e)} aria-label={`${t('common.remove')}: ${e.url}`}>
                    {t('common.remove')}
                  </Button>
                </>
              )
            : null
        }
      />
      <ConfirmDialog
        title={t('webhooks.removeNamed', { url: removing?.url ?? '' })}
        message={t('webhooks.removeWarning')}
        confirmLabel={t('common.remove')}
        open={removing !== null}
        busy={busy}
        onClose={() => setRemoving(null)}
        onConfirm={() => removing && act(async () => (await DELETE('/v1/webhook_endpoints/{id}', { path: { id: removing.id } }), setRemoving(null), await reload()))}
      />
      <section class="card">
        <h2>{t('webhooks.deliveries')}</h2>
        <DataTable
          rows={events ?? []}
          rowKey={(ev) => ev.id}
          empty={t('webhooks.noEvents')}
          columns={[
            { label: t('webhooks.event'), cell: (ev) => <code>{ev.type}</code> },
            { label: t('orders.time'), cell: (ev) => when(ev.created) },
            {
              label: t('webhooks.deliveries'),
              cell: (ev) =>
                ev.deliveries.length === 0
                  ? '—'
                  : ev.deliveries.map((d) => (
                      <div key={d.endpoint}>
                        <Badge tone={d.status === 'delivered' ? 'good' : d.status === 'failed' ? 'bad' : 'neutral'}>{d.status}</Badge> {t('webhooks.attempts', { n: d.attempts.length })}
                        {d.attempts.length ? ` · ${d.attempts[d.attempts.length - 1].response_status ?? d.attempts[d.attempts.length - 1].error ?? ''}` : ''}
                      </div>
                    )),
            },
          ]}
          actions={
            writable
              ? (ev) =>
                  ev.deliveries.length ? (
                    <Button disabled={busy} onClick={() => act(async () => (await POST('/v1/events/{id}/resend', { path: { id: ev.id } }), await reloadEvents()))} aria-label={`${t('webhooks.resend')}: ${ev.type}`}>
                      {t('webhooks.resend')}
                    </Button>
                  ) : null
              : null
          }
        />
      </section>
      {adding ? (
        <EndpointDialog
          onClose={() => setAdding(false)}
          onSaved={async (s) => {
            setSecret(s);
            await reload();
          }}
        />
      ) : null}
    </>
  );
}

function EndpointDialog({ onClose, onSaved }: { onClose: () => void; onSaved: (secret: string) => Promise<void> }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState('*');
  const save = async () => {
    const made = await POST('/v1/webhook_endpoints', { body: { url, enabled_events: events.split(',').map((s) => s.trim()).filter(Boolean) as Body<'post', '/v1/webhook_endpoints'>['enabled_events'] } });
    await onSaved(made.secret ?? '');
    onClose();
  };
  return (
    <FormDialog title={t('webhooks.new')} onClose={onClose} onSubmit={save}>
      <Field label={t('webhooks.url')} name="url" type="url" required value={url} onInput={(e) => setUrl((e.target as HTMLInputElement).value)} />
      <Field label={t('webhooks.events')} name="enabled_events" value={events} onInput={(e) => setEvents((e.target as HTMLInputElement).value)} hint={t('webhooks.eventsHint')} />
    </FormDialog>
  );
}
