import { render } from 'preact';
import { screensTexts } from '../i18n/screens/index.ts';
import { useEffect, useState } from 'preact/hooks';
import './screens.css';
import { ApiFailure, onUnauthorized } from '../lib/api.ts';
import { addDictionaries, t } from '../lib/i18n.ts';
import { config, startDevice, storedDevice, storeDevice, unpaired } from './device.ts';
import { ExpoScreen } from './expo.tsx';
import { FloorScreen } from './floor.tsx';
import { loadSession, session } from '../lib/session.ts';
import { KitchenScreen } from './kitchen.tsx';
import { PairScreen } from './pair.tsx';
import { ScreenBar } from './frame.tsx';

// the screens' texts in all five languages (this page's only ones)
addDictionaries(screensTexts);

/**
 * The kitchen, expo and floor screens: a page of their own (dark, large, no back-office
 * shell), signed in as a paired device. Paths: /screens/pair, /screens (choose),
 * /screens/kitchen/<station>, /screens/expo.
 */
/** The floor is for a manager's tablet: it runs on the back office's sign-in, not a device key. */
function Floor() {
  useEffect(() => void loadSession(), []);
  if (session.value === undefined) return <p class="kds-empty">{t('kds.loading')}</p>;
  if (!session.value) {
    return (
      <main class="kpair">
        <h1>{t('floor.title')}</h1>
        <p>{t('floor.signIn')}</p>
        <a class="kbtn kbtn-primary" href={`/app/login?next=${encodeURIComponent('/screens/floor')}`}>
          {t('floor.signInLink')}
        </a>
      </main>
    );
  }
  return <FloorScreen />;
}

function Screens() {
  const path = location.pathname.replace(/\/+$/, '');
  if (path === '/screens/floor') return <Floor />;
  const device = storedDevice();
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    if (path === '/screens/pair' || !device) return;
    onUnauthorized(() => (unpaired.value = true));
    startDevice(device)
      .then(() => setReady(true))
      .catch((e) => (e instanceof ApiFailure && e.status === 401 ? (unpaired.value = true) : setFailed(e instanceof Error ? e.message : String(e))));
  }, []);

  if (path === '/screens/pair') return <PairScreen />;
  if (!device || unpaired.value) {
    if (device) storeDevice(null);
    return (
      <main class="kpair">
        <h1>{t('pair.needed')}</h1>
        <p>{device ? t('pair.revoked') : t('pair.intro')}</p>
        <a class="kbtn kbtn-primary" href="/screens/pair">
          {t('pair.title')}
        </a>
      </main>
    );
  }
  if (failed) {
    return (
      <main class="kpair">
        <h1>{t('kds.unreachable')}</h1>
        <p>{failed}</p>
        <button type="button" class="kbtn kbtn-primary" onClick={() => location.reload()}>
          {t('kds.retry')}
        </button>
      </main>
    );
  }
  if (!ready || !config.value) return <p class="kds-empty">{t('kds.loading')}</p>;
  const kitchen = /^\/screens\/kitchen\/([\w-]+)$/.exec(path);
  if (kitchen) return <KitchenScreen station={kitchen[1]} />;
  if (path === '/screens/expo') return <ExpoScreen />;
  return (
    <div class="kds">
      <ScreenBar title={t('screens.choose')} />
      <main class="kchoose">
        {config.value.stations.map((s) => (
          <a key={s.key} class="kbtn kbtn-big" href={`/screens/kitchen/${s.key}`}>
            {s.name}
          </a>
        ))}
        <a class="kbtn kbtn-big" href="/screens/expo">
          {t('screens.expo')}
        </a>
      </main>
    </div>
  );
}

render(<Screens />, document.getElementById('root')!);
