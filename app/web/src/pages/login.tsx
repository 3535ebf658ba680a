import { useState } from 'preact/hooks';
import { ApiFailure } from '../lib/api.ts';
import { POST } from '../lib/client.ts';
import { t } from '../lib/i18n.ts';
import { session } from '../lib/session.ts';
import { Button, ErrorNote, Field } from '../ui/kit.tsx';

/** Where the person was sent from (`?next=`): a path of this hub's own pages only, never another site. */
export function returnTo(): string | null {
  const next = new URLSearchParams(location.search).get('next');
  return next && /^\/(app|screens)\/[^\\]*$/.test(next) && !next.startsWith('/app/login') ? next : null;
}

/** The sign-in page's address that brings the person back to `path` afterwards. */
export const loginFor = (path: string) => `/app/login?next=${encodeURIComponent(path)}`;

export function LoginPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // the app then moves on by itself (back to ?next= or the role's home): one navigation, not two
      // racing (a second one aborted the first load of a screen)
      session.value = await POST('/v1/auth/login', { body: { email, password } });
    } catch (err) {
      setError(err instanceof ApiFailure && err.code === 'sign_in_failed' ? new Error(t('login.failed')) : err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="auth-page" id="main">
      <form class="auth-card" onSubmit={submit}>
        <h1>{t('login.title')}</h1>
        <p class="muted">{t('login.intro')}</p>
        <Field label={t('login.email')} type="email" name="email" autoComplete="username" required value={email} onInput={(e) => setEmail((e.target as HTMLInputElement).value)} />
        <Field
          label={t('login.password')}
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onInput={(e) => setPassword((e.target as HTMLInputElement).value)}
        />
        <ErrorNote error={error} />
        <Button type="submit" variant="primary" disabled={busy} class="wide">
          {busy ? t('login.signingIn') : t('login.submit')}
        </Button>
        <p class="hint">{t('login.forgot')}</p>
      </form>
    </main>
  );
}
