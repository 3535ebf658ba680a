import { useState } from 'preact/hooks';
import { DELETE, GET, POST, getAll, patchChanged, type Body, type Ok } from '../lib/client.ts';
import { money, moneyInput, parseMoney, when } from '../lib/format.ts';
import { deviceName } from '../lib/device-name.ts';
import { LANGUAGE_NAMES, LANGUAGES, t, type Key, type Language } from '../lib/i18n.ts';
import { can, session } from '../lib/session.ts';
import { Badge, Button, Empty, ErrorNote, Field, PageHeader, SelectField, useAction, useLoad } from '../ui/kit.tsx';
import { DataTable } from '../ui/data-table.tsx';
import { FormDialog } from '../ui/form-dialog.tsx';

/** email null: signs in by PIN only */
type Staff = Ok<'get', '/v1/staff/{id}'>;

const ROLES = ['owner', 'manager', 'server', 'kitchen'] as const;

export function StaffPage() {
  const [staff, error, reload] = useLoad(() => getAll('/v1/staff'));
  const [sessions, , reloadSessions] = useLoad(async () => (await GET('/v1/sessions')).data);
  const [editing, setEditing] = useState<Staff | 'new' | null>(null);
  const [act, busy, actError] = useAction();
  const writable = can('staff:write');
  const me = session.value!.staff.id;

  const signOut = (id: string) => act(async () => (await DELETE('/v1/sessions/{id}', { path: { id } }), await reloadSessions()));

  return (
    <>
      <PageHeader title={t('staff.title')}>
        {writable ? (
          <Button variant="primary" onClick={() => setEditing('new')}>
            {t('staff.new')}
          </Button>
        ) : null}
      </PageHeader>
      <ErrorNote error={error ?? actError} />
      <section class="card">
        <h2>{t('staff.roles')}</h2>
        <ul class="plain-list role-help">
          {ROLES.map((r) => (
            <li key={r}>
              <strong>{t(`role.${r}` as Key)}</strong>: {t(`role.${r}.help` as Key)}
            </li>
          ))}
        </ul>
      </section>
      <DataTable
        rows={staff}
        rowKey={(s) => s.id}
        rowClass={(s) => (s.is_active ? '' : 'is-removed')}
        label={t('staff.title')}
        columns={[
          { label: t('staff.name'), cell: (s) => s.name },
          { label: t('login.email'), cell: (s) => s.email ?? <span class="muted">{t('staff.noEmail')}</span> },
          { label: t('staff.role'), cell: (s) => (ROLES.includes(s.role as 'owner') ? t(`role.${s.role}` as Key) : s.role) },
          { label: t('staff.rate'), num: true, cell: (s) => (s.hourly_rate === null ? '—' : money(s.hourly_rate)) },
          {
            label: t('staff.signIn'),
            cell: (s) =>
              !s.is_active ? <Badge tone="bad">{t('staff.inactive')}</Badge> : s.has_password ? <Badge tone="good">{t('staff.canSignIn')}</Badge> : s.has_pin ? <Badge tone="good">{t('staff.pinOnly')}</Badge> : <Badge>{t('staff.noPassword')}</Badge>,
          },
        ]}
        actions={
          writable
            ? (s) => (
                <Button onClick={() => setEditing(s)} aria-label={t('menu.editNamed', { name: s.name })}>
                  {t('common.edit')}
                </Button>
              )
            : null
        }
      />
      <section class="card">
        <h2>{t('staff.devices')}</h2>
        {!sessions?.length ? (
          <Empty>{t('staff.noDevices')}</Empty>
        ) : (
          <ul class="plain-list">
            {sessions.map((d) => (
              <li key={d.id} class="job-line">
                <span>
                  <strong>{d.name}</strong> · <span title={d.user_agent ?? undefined}>{readableDevice(d.user_agent)}</span> · {t('staff.lastUsed', { when: when(d.last_seen_at) })}
                </span>
                {writable ? (
                  <Button disabled={busy} onClick={() => signOut(d.id)} aria-label={t('staff.signOutNamed', { name: d.name })}>
                    {t('staff.signOutDevice')}
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
      {editing ? (
        <StaffDialog
          person={editing === 'new' ? null : editing}
          self={editing !== 'new' && editing.id === me}
          onClose={() => setEditing(null)}
          onSaved={async () => {
            await reload();
            await reloadSessions();
          }}
        />
      ) : null}
    </>
  );
}

function StaffDialog({ person, self, onClose, onSaved }: { person: Staff | null; self: boolean; onClose: () => void; onSaved: () => Promise<void> }) {
  const [form, setForm] = useState({
    name: person?.name ?? '',
    email: person?.email ?? '',
    role: person?.role ?? 'server',
    rate: moneyInput(person?.hourly_rate ?? null),
    password: '',
    pin: '',
    language: person?.language ?? '',
  });
  const [opened] = useState(form);
  const set = (k: keyof typeof form) => (e: Event) => setForm({ ...form, [k]: (e.target as HTMLInputElement).value });
  // an empty email: a person who signs in only by PIN on the service tablet
  const bodyOf = (f: typeof form) => ({ name: f.name, email: f.email.trim() || null, role: f.role as NonNullable<Body<'patch', '/v1/staff/{id}'>['role']>, hourly_rate: f.rate.trim() ? parseMoney(f.rate) : null, language: (f.language || null) as Language | null });
  const save = async () => {
    const body = bodyOf(form);
    const id = person ? (await patchChanged('/v1/staff/{id}', { path: { id: person.id } }, body, bodyOf(opened)), person.id) : (await POST('/v1/staff', { body: body })).id;
    if (form.password && form.email.trim()) await POST('/v1/staff/{id}/password', { path: { id }, body: { password: form.password } });
    if (form.pin) await POST('/v1/staff/{id}/pin', { path: { id }, body: { pin: form.pin } });
    await onSaved();
    onClose();
  };
  // deactivating signs the person out everywhere: asked once more
  const deactivate =
    person && person.is_active && !self
      ? {
          label: t('staff.deactivate'),
          title: t('form.deactivateNamed', { name: person.name }),
          message: t('form.deactivateBody', { name: person.name }),
          run: async () => {
            await DELETE('/v1/staff/{id}', { path: { id: person.id } });
            await onSaved();
            onClose();
          },
        }
      : null;
  return (
    <FormDialog title={person ? t('staff.edit') : t('staff.new')} onClose={onClose} onSubmit={save} remove={deactivate}>
      <Field label={t('staff.name')} name="name" required value={form.name} onInput={set('name')} />
      <Field label={t('login.email')} name="email" type="email" value={form.email} onInput={set('email')} hint={t('staff.emailHint')} />
      <div class="row">
        <SelectField label={t('staff.role')} name="role" value={form.role} onChange={(v) => setForm({ ...form, role: v })} options={ROLES.map((r) => ({ value: r, label: t(`role.${r}` as Key) }))} />
        <Field label={t('staff.rate')} name="hourly_rate" inputMode="decimal" value={form.rate} onInput={set('rate')} />
      </div>
      <SelectField
        label={t('settings.language')}
        name="language"
        value={form.language}
        onChange={(v) => setForm({ ...form, language: v })}
        options={[{ value: '', label: t('account.restaurantLanguage') }, ...LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))]}
      />
      {form.email.trim() ? (
        <Field
          label={person?.has_password ? t('staff.newPassword') : t('login.password')}
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={10}
          value={form.password}
          onInput={set('password')}
          hint={person?.has_password ? t('staff.passwordHint') : t('staff.passwordHintNew')}
        />
      ) : null}
      <Field
        label={t('staff.pin')}
        name="pin"
        type="password"
        inputMode="numeric"
        autoComplete="off"
        pattern="[0-9]{4,6}"
        minLength={4}
        maxLength={6}
        value={form.pin}
        onInput={set('pin')}
        hint={person?.has_pin ? t('staff.pinHintKeep') : t('staff.pinHint')}
      />
    </FormDialog>
  );
}

/** "Chrome on Android", from the session's user agent (the raw string stays in the tooltip). */
function readableDevice(ua: string | null): string {
  const { browser, os } = deviceName(ua);
  if (browser && os) return t('staff.deviceOn', { browser, os });
  if (os) return t('staff.deviceSomeBrowser', { os });
  return browser ?? t('staff.deviceUnknown');
}
