import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../lib/i18n.ts';
import { live } from '../lib/live.ts';
import { nowSeconds } from './board.ts';
import { config } from './device.ts';

/** The top bar every screen shares: what it is, the clock, its buttons, and the offline banner under it. */
export function ScreenBar({ title, children }: { title: string; children?: ComponentChildren }) {
  const status = live.status.value;
  const clock = new Date(nowSeconds.value * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
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
        <div class="kbar-actions">{children}</div>
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
