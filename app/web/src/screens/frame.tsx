import { computed } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { clockTime } from '../lib/format.ts';
import { t } from '../lib/i18n.ts';
import { live } from '../lib/live.ts';
import { home } from '../lib/homes.ts';
import { nowSeconds } from './board.ts';
import { config } from './device.ts';

const minute = computed(() => Math.floor(nowSeconds.value / 60));
/**
 * The venue's clock as the back office shows it (its language's format, its time zone), not the
 * tablet's. A signal of its own, rendered as text: it changes once a minute, and the bar is not
 * drawn again each second (nor a date format built, which costs more than the frame it is in).
 */
const clock = computed(() => clockTime(minute.value * 60, config.value?.restaurant.timezone));

/** The top bar every screen shares: what it is, the clock, its buttons, and the offline banner under it. */
export function ScreenBar({ title, children, chooser }: { title: string; children?: ComponentChildren; /** a link back to the screen chooser */ chooser?: boolean }) {
  const status = live.status.value;
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
      ) : home.value === 'cloud' ? (
        <div class="kbanner kbanner-cloud" role="status">
          {t('homes.onCloud')}
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
