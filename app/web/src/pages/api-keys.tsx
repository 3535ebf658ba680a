import { useState } from 'preact/hooks';
import { DELETE, GET, POST, type Body } from '../lib/client.ts';
import { when } from '../lib/format.ts';
import { t } from '../lib/i18n.ts';
import { can, session } from '../lib/session.ts';
import { Badge, Button, ErrorNote, Field, PageHeader, SelectField, useAction, useLoad } from '../ui/kit.tsx';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { DataTable } from '../ui/data-table.tsx';
import { FormDialog } from '../ui/form-dialog.tsx';

interface ApiKey {
  id: string;
  name: string | null;
  type: 'secret' | 'widget';
  livemode: boolean;
  prefix: string;
  scopes: string[];
  last_used_at: number | null;
  revoked_at: number | null;
  created: number;
}

/** Keys for integrations and screens: made here, the secret shown once, revoked with one tap. */
export function ApiKeysPage() {
  const [keys, error, reload] = useLoad(async () => (await GET('/v1/api_keys', { query: { limit: 100 } })).data);
  const [creating, setCreating] = useState(false);
  const [made, setMade] = useState<(ApiKey & { secret: string }) | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [act, busy, actError] = useAction();
  const writable = can('api_keys:write');

  // a revoked key stops its integration for good: asked once more, naming what uses it
  const revoke = async (k: ApiKey) => {
    if (await act(async () => (await DELETE('/v1/api_keys/{id}', { path: { id: k.id } }), await reload()))) setRevoking(null);
  };

  return (
    <>
      <PageHeader title={t('keys.title')}>
        {writable ? (
          <Button variant="primary" onClick={() => setCreating(true)}>
            {t('keys.new')}
          </Button>
        ) : null}
      </PageHeader>
      <p class="muted">{t('keys.intro')}</p>
      <ErrorNote error={error ?? actError} />
      {made ? <SecretOnce made={made} onDone={() => setMade(null)} /> : null}
      <DataTable
        rows={keys}
        rowKey={(k) => k.id}
        rowClass={(k) => (k.revoked_at ? 'is-removed' : '')}
        empty={t('keys.none')}
        label={t('keys.title')}
        columns={[
          { label: t('keys.name'), cell: (k) => k.name ?? '—' },
          {
            label: t('keys.type'),
            cell: (k) => (
              <>
                {t(k.type === 'widget' ? 'keys.widget' : 'keys.secret')} <Badge tone={k.livemode ? 'good' : 'warn'}>{k.livemode ? t('keys.live') : t('keys.sandbox')}</Badge>
              </>
            ),
          },
          { label: t('keys.key'), cell: (k) => <code>{k.prefix}…</code> },
          { label: t('keys.lastUsed'), cell: (k) => (k.revoked_at ? t('keys.revokedAt', { when: when(k.revoked_at) }) : when(k.last_used_at)) },
        ]}
        actions={
          writable
            ? (k) =>
                !k.revoked_at ? (
                  <Button variant="danger" disabled={busy} onClick={() => setRevoking(k)} aria-label={t('keys.revokeNamed', { name: k.name ?? k.prefix })}>
                    {t('keys.revoke')}
                  </Button>
                ) : null
            : null
        }
      />
      <ConfirmDialog
        title={t('keys.revokeNamed', { name: revoking?.name ?? revoking?.prefix ?? '' })}
        message={t('keys.revokeWarning')}
        confirmLabel={t('keys.revoke')}
        open={revoking !== null}
        busy={busy}
        onClose={() => setRevoking(null)}
        onConfirm={() => revoking && revoke(revoking)}
      />
      {creating ? (
        <NewKeyDialog
          onClose={() => setCreating(false)}
          onMade={async (k) => {
            setCreating(false);
            setMade(k);
            await reload();
          }}
        />
      ) : null}
    </>
  );
}

function SecretOnce({ made, onDone }: { made: ApiKey & { secret: string }; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(made.secret);
    } catch {
      // no clipboard (plain http on a LAN address): select the text for a manual copy
      const el = document.getElementById('new-secret') as HTMLInputElement | null;
      el?.select();
      document.execCommand?.('copy');
    }
    setCopied(true);
  };
  return (
    <section class="card secret-card" role="region" aria-label={t('keys.created')}>
      <h2>{t('keys.created')}</h2>
      <p>{t('keys.showOnce')}</p>
      <div class="secret-row">
        <label class="sr-only" for="new-secret">
          {t('keys.key')}
        </label>
        <input id="new-secret" readOnly value={made.secret} onFocus={(e) => (e.target as HTMLInputElement).select()} />
        <Button variant="primary" onClick={copy}>
          {copied ? t('keys.copied') : t('keys.copy')}
        </Button>
      </div>
      <Button onClick={onDone}>{t('keys.done')}</Button>
    </section>
  );
}

type Scope = NonNullable<Body<'post', '/v1/api_keys'>['scopes']>[number];
const SCOPE_SETS: Record<string, Scope[] | undefined> = {
  full: undefined,
  read: ['orders:read', 'menu:read', 'reservations:read', 'analytics:read', 'tables:read', 'settings:read'],
  orders: ['orders:read', 'orders:write', 'menu:read', 'tables:read'],
  menu: ['menu:read', 'menu:write'],
  reservations: ['reservations:read', 'reservations:write', 'tables:read'],
};

function NewKeyDialog({ onClose, onMade }: { onClose: () => void; onMade: (k: ApiKey & { secret: string }) => void }) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState('live');
  const [scopes, setScopes] = useState('full');
  const submit = async () => {
    const body = {
      name,
      type: kind === 'widget' ? ('widget' as const) : ('secret' as const),
      livemode: kind !== 'sandbox',
      ...(kind !== 'widget' && SCOPE_SETS[scopes] ? { scopes: SCOPE_SETS[scopes] } : {}),
    };
    onMade(await POST('/v1/api_keys', { body: body }));
  };
  return (
    <FormDialog title={t('keys.new')} submitLabel={t('keys.create')} onClose={onClose} onSubmit={submit}>
      <Field label={t('keys.name')} name="name" required value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} hint={t('keys.nameHint')} />
      <SelectField
        label={t('keys.type')}
        name="type"
        value={kind}
        onChange={setKind}
        options={[
          { value: 'live', label: t('keys.kindLive') },
          { value: 'sandbox', label: t('keys.kindSandbox') },
          { value: 'widget', label: t('keys.kindWidget') },
        ]}
      />
      {kind !== 'widget' ? (
        <SelectField
          label={t('keys.scopes')}
          name="scopes"
          value={scopes}
          onChange={setScopes}
          options={Object.keys(SCOPE_SETS).map((s) => ({ value: s, label: t(`keys.scopes.${s}` as 'keys.scopes.full') }))}
          hint={SCOPE_SETS[scopes]?.join(', ') ?? t('keys.scopes.fullHint', { role: session.value?.role ?? '' })}
        />
      ) : null}
    </FormDialog>
  );
}
