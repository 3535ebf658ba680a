import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { locale } from '../lib/format.ts';
import { t } from '../lib/i18n.ts';
import { live } from '../lib/live.ts';
import { nowSeconds } from './board.ts';
import { config } from './device.ts';

/** The top bar every screen shares: what it is, the clock, its buttons, and the offline banner under it. */
export function ScreenBar({ title, children, chooser }: { title: string; children?: ComponentChildren; /** a link back to the screen chooser */ chooser?: boolean }) {
  const status = live.status.value;
  // the venue's clock as the back office shows it (its language's format, its time zone), not the tablet's
  const clock = new Intl.DateTimeFormat(locale.value, { hour: '2-digit', minute: '2-digit', timeZone: config.value?.restaurant.timezone }).format(nowSeconds.value * 1000);
  return (
    <>
      <header class="kbar">
        <h1>{title}</h1>
        {config.value ? (
          <span class="kbar-sub">
            {config.value.device?.name ?? ''} · {config.value.restaurant.name}
          </span>
        ) : null}
        <span class="kbar-clock">{clock}</span>
        <div class="kbar-actions">
          {children}
          {chooser ? (
            <a class="kbtn" href="/screens">
              {t('devices.chooser')}
            </a>
          ) : null}
        </div>
      </header>
      {status === 'offline' ? (
        <div class="kbanner" role="status">
          {t('kds.offline')}
        </div>
      ) : null}
    </>
  );
}

/**
 * The new-ticket chime, on unless switched off on this device. The third value is read by the
 * live feed's handler, which is set up once and must hear the switch as it is now.
 */
export function useSound(): [boolean, (v: boolean) => void, { current: boolean }] {
  const [on, setOn] = useState(() => localStorage.getItem('comanda.sound') !== 'off');
  const now = useRef(on);
  now.current = on;
  useEffect(() => localStorage.setItem('comanda.sound', on ? 'on' : 'off'), [on]);
  return [on, setOn, now];
}
