import { PATCH } from '../lib/client.ts';
import { LANGUAGE_NAMES, LANGUAGES, t, type Key, type Language } from '../lib/i18n.ts';
import { session } from '../lib/session.ts';
import { ErrorNote, PageHeader, SelectField, useAction } from '../ui/kit.tsx';

/** Your own preferences: the back office's language on your devices. */
export function AccountPage() {
  const s = session.value!;
  const [act, , error] = useAction();
  const setLanguage = (v: string) => act(async () => (session.value = await PATCH('/v1/auth/session', { body: { language: (v || null) as Language | null } })));
  return (
    <>
      <PageHeader title={t('account.title')} />
      <section class="card narrow">
        <dl class="facts">
          <dt>{t('staff.name')}</dt>
          <dd>{s.staff.name}</dd>
          <dt>{t('login.email')}</dt>
          <dd>{s.staff.email ?? t('staff.noEmail')}</dd>
          <dt>{t('staff.role')}</dt>
          <dd>{t(`role.${s.role}` as Key)}</dd>
        </dl>
        <SelectField
          label={t('settings.language')}
          value={s.staff.language ?? ''}
          onChange={setLanguage}
          options={[{ value: '', label: `${t('account.restaurantLanguage')} (${LANGUAGE_NAMES[s.restaurant.language as 'en'] ?? s.restaurant.language})` }, ...LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))]}
        />
        <ErrorNote error={error} />
      </section>
    </>
  );
}
