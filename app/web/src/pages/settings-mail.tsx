import { useEffect, useState } from 'preact/hooks';
import { ApiFailure } from '../lib/api.ts';
import { GET, PATCH } from '../lib/client.ts';
import { loadSystemHealth } from '../lib/health.ts';
import { t } from '../lib/i18n.ts';
import { FieldRefusal } from '../ui/field-problem.ts';
import { FieldForm, ProblemNote, useFieldForm } from '../ui/field-form.tsx';
import { ErrorNote, Field, Loading, Toggle, useLoad } from '../ui/kit.tsx';
import { SaveBar } from '../ui/save-bar.tsx';
import { Facts } from './health-parts.tsx';

interface Transports {
  email: {
    configured: boolean;
    source: 'settings' | 'config' | null;
    from: string;
    smtp: { host: string; port: number; secure: boolean; user: string | null; pass: string | null } | null;
  };
  sms: { configured: boolean; source: 'settings' | 'config' | null; url: string | null; token: string | null };
  unreadable_secrets: string[];
}

interface Form {
  from: string;
  smtpOn: boolean;
  host: string;
  port: string;
  secure: boolean;
  user: string;
  /** empty: keep the stored one */
  pass: string;
  smsOn: boolean;
  url: string;
  token: string;
}

const formOf = (s: Transports): Form => ({
  from: s.email.from,
  smtpOn: s.email.smtp !== null,
  host: s.email.smtp?.host ?? '',
  port: String(s.email.smtp?.port ?? 587),
  secure: s.email.smtp?.secure ?? false,
  user: s.email.smtp?.user ?? '',
  pass: '',
  smsOn: s.sms.url !== null,
  url: s.sms.url ?? '',
  token: '',
});

/** What stands for a write-only secret: whether one is set (its masked tail), and that an empty field keeps it. */
function secretHint(masked: string | null): string {
  return masked ? t('ops.secret.set', { masked }) : t('ops.secret.notSet');
}

/**
 * The API keeps a stored secret for the server it was given for only: a changed server without
 * its secret is refused as missing, which here means "give it again", not "required".
 */
function secretAgain(err: unknown): unknown {
  if (!(err instanceof ApiFailure) || err.code !== 'parameter_missing') return err;
  if (err.param === 'smtp.pass') return new FieldRefusal('smtp.pass', t('ops.mail.passAgain'));
  if (err.param === 'sms.token') return new FieldRefusal('sms.token', t('ops.mail.tokenAgain'));
  return err;
}

/** Settings → Mail & SMS: the hub's SMTP server and SMS gateway; passwords are write-only. */
export function MailSettings() {
  const [stored, error, , setStored] = useLoad(() => GET('/v1/settings/notifications'));
  // the cloud's transports serve every restaurant and come from its environment: shown, not edited
  const [system] = useLoad(loadSystemHealth);
  const [form, setForm] = useState<Form | null>(null);
  // a section is sent only when touched, so a password kept in the config file is never overwritten
  const [dirty, setDirty] = useState({ email: false, sms: false });
  const [saved, setSaved] = useState(false);
  const from = form?.from.trim() ?? '';
  // the API's checks of these fields, said in the reader's words (the others are the browser's: required, port range)
  const state = useFieldForm({ from: from.length < 3 ? t('form.tooShort', { min: 3 }) : t('form.tooLong', { max: 255 }), 'sms.url': t('form.url') });
  useEffect(() => {
    if (stored) setForm(formOf(stored));
    setDirty({ email: false, sms: false });
  }, [stored]);
  if (!form || !stored || !system) return error ? <ErrorNote error={error} /> : <Loading />;
  if (system.role === 'cloud') return <CloudTransports stored={stored} />;

  const set = (section: 'email' | 'sms', patchForm: Partial<Form>) => {
    setSaved(false);
    setForm({ ...form, ...patchForm });
    setDirty({ ...dirty, [section]: true });
  };
  const text = (section: 'email' | 'sms', key: keyof Form) => (e: Event) => set(section, { [key]: (e.target as HTMLInputElement).value });

  const submit = async () => {
    const body: Record<string, unknown> = {};
    if (dirty.email) {
      body.from = form.from;
      body.smtp = form.smtpOn
        ? { host: form.host, port: Number(form.port), secure: form.secure, user: form.user || null, ...(form.pass ? { pass: form.pass } : {}) }
        : null;
    }
    if (dirty.sms) body.sms = form.smsOn ? { url: form.url, ...(form.token ? { token: form.token } : {}) } : null;
    const ok = await state.run(async () => {
      try {
        setStored(await PATCH('/v1/settings/notifications', { body: body }));
      } catch (err) {
        throw secretAgain(err);
      }
    });
    if (ok) setSaved(true);
  };
  const fromConfig = (source: string | null, touched: boolean) => (source === 'config' && !touched ? <p class="hint">{t('ops.mail.fromConfig')}</p> : null);

  return (
    <FieldForm state={state} class="settings-form" onSubmit={submit}>
      {stored.unreadable_secrets.length ? (
        <p class="warn-note" role="alert">
          {t('ops.secret.unreadable', { which: stored.unreadable_secrets.join(', ') })}
        </p>
      ) : null}
      <section class="card" aria-labelledby="mail-title">
        <h2 id="mail-title">{t('ops.mail.email')}</h2>
        <p class="hint">{t('ops.mail.emailHint')}</p>
        {fromConfig(stored.email.source, dirty.email)}
        <Field label={t('ops.mail.from')} hint={t('ops.mail.fromHint')} name="from" value={form.from} onInput={text('email', 'from')} />
        <Toggle label={t('ops.mail.smtpOn')} checked={form.smtpOn} onChange={(v) => set('email', { smtpOn: v })} />
        {form.smtpOn ? (
          <>
            <div class="row">
              <Field label={t('ops.mail.host')} name="smtp.host" also={['smtp']} value={form.host} required onInput={text('email', 'host')} />
              <Field label={t('ops.mail.port')} type="number" min={1} max={65535} name="smtp.port" value={form.port} required onInput={text('email', 'port')} />
            </div>
            <Toggle label={t('ops.mail.secure')} checked={form.secure} onChange={(v) => set('email', { secure: v })} />
            <div class="row">
              <Field label={t('ops.mail.user')} autoComplete="off" name="smtp.user" value={form.user} onInput={text('email', 'user')} />
              <Field
                label={t('ops.mail.pass')}
                type="password"
                autoComplete="new-password"
                hint={secretHint(stored.email.smtp?.pass ?? null)}
                name="smtp.pass"
                value={form.pass}
                onInput={text('email', 'pass')}
              />
            </div>
          </>
        ) : null}
      </section>
      <section class="card" aria-labelledby="sms-title">
        <h2 id="sms-title">{t('ops.mail.sms')}</h2>
        <p class="hint">{t('ops.mail.smsHint')}</p>
        {fromConfig(stored.sms.source, dirty.sms)}
        <Toggle label={t('ops.mail.smsOn')} checked={form.smsOn} onChange={(v) => set('sms', { smsOn: v })} />
        {form.smsOn ? (
          <div class="row">
            <Field label={t('ops.mail.url')} inputMode="url" name="sms.url" also={['sms']} value={form.url} required onInput={text('sms', 'url')} />
            <Field
              label={t('ops.mail.token')}
              type="password"
              autoComplete="new-password"
              hint={secretHint(stored.sms.token)}
              name="sms.token"
              value={form.token}
              onInput={text('sms', 'token')}
            />
          </div>
        ) : null}
      </section>
      <ProblemNote state={state} />
      <SaveBar disabled={state.busy || (!dirty.email && !dirty.sms)} saved={saved} />
    </FieldForm>
  );
}

function CloudTransports({ stored }: { stored: Transports }) {
  const smtp = stored.email.smtp;
  return (
    <section class="card">
      <h2>{t('ops.mail.tab')}</h2>
      <p class="hint">{t('ops.mail.cloud')}</p>
      <Facts
        rows={[
          [t('ops.mail.from'), stored.email.from],
          [t('ops.mail.host'), smtp ? `${smtp.host}:${smtp.port}` : t('ops.backup.off')],
          [t('ops.mail.url'), stored.sms.url ?? t('ops.backup.off')],
        ]}
      />
    </section>
  );
}
