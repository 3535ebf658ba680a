import { computed } from '@preact/signals';
import { useState } from 'preact/hooks';
import { ApiFailure } from '../lib/api.ts';
import { GET, PATCH } from '../lib/client.ts';
import { t } from '../lib/i18n.ts';
import { chime, formatAge, isJustIn, makeBoard, nowSeconds, useBoard } from './board.ts';
import { config } from './device.ts';
import { ScreenBar, useSound } from './frame.tsx';
import { destination, Note, serverName } from './kitchen.tsx';
import { fromLive, fromPublic, type Ticket } from './tickets.ts';

const FIELDS = 'id,orderNumber,type,status,table,tableNumber,server,customerName,notes,placedAt,total,currency,items';
/** On the pass: placed and not yet served. */
const onExpo = (tk: Ticket) => ['placed', 'preparing', 'ready'].includes(tk.status);
const notReady = (tk: Ticket) => tk.lines.filter((l) => l.status !== 'ready' && l.status !== 'served').length;
const allReady = (tk: Ticket) => tk.lines.length > 0 && tk.lines.every((l) => l.status === 'ready' || l.status === 'served');

/** The pass: every open order with each line's state across stations; "Served" sends it out. */
export function ExpoScreen() {
  const [board] = useState(makeBoard);
  const [sound, setSound, soundNow] = useSound();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  // a ticket with lines still cooking somewhere needs a second tap: a runner must not send half a table's food by habit
  const [confirming, setConfirming] = useState<string | null>(null);
  const tables = computed(() => new Map((config.value?.tables ?? []).map((x) => [x.id, x.number])));
  const stationName = (key: string) => config.value?.stations.find((s) => s.key === key)?.name ?? key;
  // a ticket's lines in the kitchen's order of stations (Settings → Stations), as the tickets print
  const rank = (key: string) => {
    const i = config.value?.stations.findIndex((s) => s.key === key) ?? -1;
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  const inStationOrder = (tk: Ticket) => [...tk.lines].sort((a, b) => rank(a.station) - rank(b.station) || a.index - b.index);
  useBoard(
    {
      topic: 'orders',
      load: async () => (await GET('/public/orders/active', { query: { fields: FIELDS } })).data.map(fromPublic),
      fromMessage: (o) => fromLive(o, tables.value),
      shows: onExpo,
      onNew: () => soundNow.current && chime(),
    },
    board,
  );
  const shown = [...board.tickets.value.values()].filter(onExpo).sort((a, b) => (a.placedAt ?? 0) - (b.placedAt ?? 0) || a.id.localeCompare(b.id));
  const serve = async (tk: Ticket) => {
    if (!allReady(tk) && confirming !== tk.id) return setConfirming(tk.id);
    setConfirming(null);
    setBusy(tk.id);
    setError(null);
    try {
      board.put(fromPublic(await PATCH('/public/orders/{id}/status', { path: { id: tk.id }, body: { status: 'served' } })));
    } catch (e) {
      setError(e instanceof ApiFailure ? e.message : String(e));
    } finally {
      setBusy(null);
    }
  };
  return (
    <div class="kds">
      <ScreenBar title={t('expo.title')} chooser>
        <button type="button" class="kbtn" aria-pressed={sound} onClick={() => setSound(!sound)}>
          {sound ? t('kds.soundOn') : t('kds.soundOff')}
        </button>
      </ScreenBar>
      {error ? (
        <p class="kds-error" role="alert">
          {error}
        </p>
      ) : null}
      <main class="kds-tickets" aria-label={t('kds.tickets')}>
        {!board.loaded.value ? <p class="kds-empty">{t('kds.loading')}</p> : !shown.length ? <p class="kds-empty">{t('kds.empty')}</p> : null}
        {shown.map((tk) => {
          const ready = allReady(tk);
          const age = tk.placedAt === null ? 0 : nowSeconds.value - tk.placedAt;
          return (
            <article key={tk.id} class={`ticket ${ready ? 'expo-ready' : ''} ${isJustIn(board, tk.id) ? 'ticket-new' : ''}`} data-order={tk.id} aria-label={t('kds.ticketLabel', { n: tk.number })}>
              <header class="ticket-head">
                <div>
                  <span class="ticket-no">#{tk.number}</span>
                  {isJustIn(board, tk.id) ? <span class="tag tag-new">{t('kds.new')}</span> : null}
                  {ready ? <span class="tag tag-ready">{t('expo.allReady')}</span> : null}
                </div>
                <time class="ticket-age">{formatAge(age)}</time>
                <div class="ticket-where">{destination(tk)}</div>
                {serverName(tk) ? <div class="ticket-server">{serverName(tk)}</div> : null}
              </header>
              <ul class="ticket-lines">
                {inStationOrder(tk).map((l) => (
                  <li key={l.index} class={`line line-${l.status}`}>
                    <span class="line-main">
                      <span class="line-qty">{l.quantity}×</span> {l.name}
                      <span class="line-state">{t(`kds.line.${l.status}` as 'kds.line.pending')}</span>
                    </span>
                    <span class="line-station">{stationName(l.station)}</span>
                    {l.modifiers.length ? <span class="line-mods">{l.modifiers.join(', ')}</span> : null}
                    {l.notes ? <Note text={l.notes} class="line-note" /> : null}
                  </li>
                ))}
              </ul>
              {tk.notes ? <Note text={tk.notes} class="ticket-note" block /> : null}
              {confirming === tk.id ? (
                <p class="kds-warning" role="alert">
                  {t('expo.notReady', { count: notReady(tk) })}
                </p>
              ) : null}
              <button type="button" class={`kbtn bump ${confirming === tk.id ? 'kbtn-danger' : ''}`} disabled={busy === tk.id} onClick={() => void serve(tk)}>
                {confirming === tk.id ? t('expo.serveAnyway') : t('expo.served')}
              </button>
            </article>
          );
        })}
      </main>
    </div>
  );
}
