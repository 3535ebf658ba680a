import { computed, signal, useComputed, type Signal } from '@preact/signals';
import { memo } from 'preact/compat';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure, get, patch } from '../lib/api.ts';
import { t } from '../lib/i18n.ts';
import { chime, formatAge, isJustIn, makeBoard, nowSeconds, useBoard, type Board } from './board.ts';
import { config } from './device.ts';
import { ScreenBar, useSound } from './frame.tsx';
import { allDay, fromLive, fromPublic, isAllergyNote, nextStatus, onKitchen, startedAt, type Line, type Ticket } from './tickets.ts';

const FIELDS = 'id,orderNumber,type,status,table,tableNumber,server,customerName,notes,placedAt,total,currency,items';
const RECALL_DEPTH = 20;
const FLASH_GAP_MS = 1500;

/** Where the ticket goes: a table, a takeout name, a delivery. */
export function destination(tk: Ticket): string {
  if (tk.type === 'dine_in') return tk.tableNumber !== null ? t('kds.table', { n: tk.tableNumber }) : t('kds.dineIn');
  if (tk.type === 'delivery') return tk.customerName ? `${t('kds.delivery')} · ${tk.customerName}` : t('kds.delivery');
  return tk.customerName ? `${t('kds.takeout')} · ${tk.customerName}` : t('kds.takeout');
}

export function serverName(tk: Ticket): string | null {
  return tk.serverId ? (config.value?.staff.find((s) => s.id === tk.serverId)?.name ?? null) : null;
}

/** A guest's note on a line or an order; an allergy or intolerance stands out wherever it is shown. */
export function Note({ text, class: cls, block }: { text: string; class: string; block?: boolean }) {
  const allergy = isAllergyNote(text);
  const Tag = block ? 'p' : 'span';
  return <Tag class={`${cls} ${allergy ? 'allergy' : ''}`}>{allergy ? `⚠ ${text}` : text}</Tag>;
}

export function KitchenScreen({ station }: { station: string }) {
  const [board] = useState(makeBoard);
  const [sound, setSound, soundNow] = useSound();
  const [flash] = useState(() => signal(0));
  const lastFlash = useRef(0);
  const [bumped, setBumped] = useState<string[]>([]);
  const [recalled, setRecalled] = useState<string[]>([]);
  const [busy, setBusy] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const tables = computed(() => new Map((config.value?.tables ?? []).map((x) => [x.id, x.number])));
  const st = config.value?.stations.find((s) => s.key === station);
  const warn = (st?.warnAfterMinutes ?? 8) * 60;
  const late = (st?.lateAfterMinutes ?? 15) * 60;

  const forStation = (tk: Ticket): Ticket => ({ ...tk, lines: tk.lines.filter((l) => l.station === station) });
  useBoard(
    {
      topic: `station:${station}`,
      load: async () => (await get<{ data: any[] }>('/public/orders/kitchen', { station, fields: FIELDS })).data.map((o) => forStation(fromPublic(o))),
      fromMessage: (o) => forStation(fromLive(o, tables.value)),
      shows: onKitchen,
      onNew: () => {
        if (soundNow.current) chime();
        // one flash for a burst: a flash already on screen is not started again
        const now = Date.now();
        if (now - lastFlash.current < FLASH_GAP_MS) return;
        lastFlash.current = now;
        flash.value++;
      },
    },
    board,
  );

  const all = [...board.tickets.value.values()];
  const shown = all
    .filter((tk) => onKitchen(tk) || recalled.includes(tk.id))
    .sort((a, b) => (startedAt(a) ?? 0) - (startedAt(b) ?? 0) || a.id.localeCompare(b.id));
  // a ticket that leaves the screen (bumped here or on another screen) can be recalled
  const gone = all.filter((tk) => !onKitchen(tk) && !recalled.includes(tk.id)).map((tk) => tk.id);
  const recallable = [...bumped.filter((id) => gone.includes(id))];

  const run = async (key: string, fn: () => Promise<void>) => {
    setBusy((b) => new Set(b).add(key));
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(e instanceof ApiFailure ? e.message : String(e));
    } finally {
      setBusy((b) => {
        const n = new Set(b);
        n.delete(key);
        return n;
      });
    }
  };
  const move = (tk: Ticket, line: Line, to: string) =>
    patch<any>(`/public/orders/${tk.id}/items/${line.index}/status`, { status: to, station }).then((o) => board.put(forStation(fromPublic(o))));

  const tap = (tk: Ticket, line: Line) => {
    const to = nextStatus(line.status);
    if (!to) return;
    void run(`${tk.id}:${line.index}`, () => move(tk, line, to));
  };
  const bump = (tk: Ticket) =>
    void run(tk.id, async () => {
      for (const line of tk.lines) if (line.status === 'pending' || line.status === 'preparing') await move(tk, line, 'ready');
      setRecalled((r) => r.filter((id) => id !== tk.id));
      setBumped((b) => [tk.id, ...b.filter((id) => id !== tk.id)].slice(0, RECALL_DEPTH));
    });
  // a recalled ticket bumped again goes back on top of the recall list: recallable as often as needed
  const bumpRecalled = (tk: Ticket) => {
    setRecalled((r) => r.filter((id) => id !== tk.id));
    setBumped((b) => [tk.id, ...b.filter((id) => id !== tk.id)].slice(0, RECALL_DEPTH));
  };
  const recall = () => {
    const id = recallable[0];
    if (!id) return;
    setRecalled((r) => [...r, id]);
    setBumped((b) => b.filter((x) => x !== id));
  };

  const counts = allDay(shown);
  return (
    <div class="kds">
      <Flash count={flash} />
      <ScreenBar title={st?.name ?? station} chooser>
        <button type="button" class="kbtn" onClick={recall} disabled={!recallable.length}>
          {t('kds.recall')}
          {recallable.length ? ` (${recallable.length})` : ''}
        </button>
        <button type="button" class="kbtn" aria-pressed={sound} onClick={() => setSound(!sound)}>
          {sound ? t('kds.soundOn') : t('kds.soundOff')}
        </button>
      </ScreenBar>
      {error ? (
        <p class="kds-error" role="alert">
          {error}
        </p>
      ) : null}
      <div class="kds-body">
        <main class="kds-tickets" aria-label={t('kds.tickets')}>
          {!board.loaded.value ? <p class="kds-empty">{t('kds.loading')}</p> : !shown.length ? <p class="kds-empty">{t('kds.empty')}</p> : null}
          {shown.map((tk) => (
            <TicketCard
              key={tk.id}
              tk={tk}
              warn={warn}
              late={late}
              board={board}
              recalled={recalled.includes(tk.id)}
              busy={[...busy].filter((k) => k === tk.id || k.startsWith(`${tk.id}:`)).join(',')}
              onTap={tap}
              onBump={(x) => (onKitchen(x) ? bump(x) : bumpRecalled(x))}
            />
          ))}
        </main>
        <aside class="allday" aria-labelledby="allday-title">
          <h2 id="allday-title">{t('kds.allDay')}</h2>
          {counts.length ? (
            <ul>
              {counts.map(([name, n]) => (
                <li key={name}>
                  <span class="allday-n">{n}</span> {name}
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">{t('kds.allDayNone')}</p>
          )}
        </aside>
      </div>
    </div>
  );
}

interface CardProps {
  tk: Ticket;
  warn: number;
  late: number;
  /** the board, for its "just in" marks: each card reads its own, so a mark redraws that card alone */
  board: Board;
  recalled: boolean;
  /** the busy keys of this ticket (`id`, `id:line`), joined: a string, so an unchanged card is not redrawn */
  busy: string;
  onTap: (tk: Ticket, line: Line) => void;
  onBump: (tk: Ticket) => void;
}

/**
 * The running age, the only part of a ticket that changes every second: its text is a signal
 * bound straight to the DOM, so the tick rewrites one text node and renders nothing (the word a
 * screen reader hears before it is fixed text, not a label rewritten every second).
 */
function Age({ from }: { from: number | null }) {
  const text = useComputed(() => formatAge(from === null ? 0 : nowSeconds.value - from));
  return (
    <time class="ticket-age">
      <span class="sr-only">{t('kds.waiting')} </span>
      {text}
    </time>
  );
}

/** How long the new-ticket flash stays on the screen. */
const FLASH_MS = 450;

/**
 * The full-screen flash on a new ticket, on its own so a flash does not redraw the tickets. It
 * is switched on and off, not faded: a fade repaints and composites the whole window on every
 * frame it runs (36 frames a flash), which on a box driving many screens cost about a third of
 * each screen's CPU; on and off is two frames, and a cook a metre away still sees the blink.
 */
function Flash({ count }: { count: Signal<number> }) {
  const [on, setOn] = useState(false);
  const n = count.value;
  useEffect(() => {
    if (!n) return;
    setOn(true);
    const off = setTimeout(() => setOn(false), FLASH_MS);
    return () => clearTimeout(off);
  }, [n]);
  return on ? <div class="kflash" aria-hidden="true" /> : null;
}

/**
 * One ticket. Redrawn only when its order, flags or thresholds change (the handlers only call
 * state setters, so an older copy of them does the same), or when its colour turns.
 */
const TicketCard = memo(
  function TicketCard({ tk, warn, late, board, recalled, busy, onTap, onBump }: CardProps) {
    const from = startedAt(tk);
    const tone = useComputed(() => {
      const age = from === null ? 0 : nowSeconds.value - from;
      return age >= late ? 'late' : age >= warn ? 'warn' : 'ok';
    }).value;
    const isNew = useComputed(() => isJustIn(board, tk.id)).value;
    const rounds = Math.max(...tk.lines.map((l) => l.round));
    const busyKeys = new Set(busy.split(','));
    return (
      <article class={`ticket ticket-${tone} ${isNew ? 'ticket-new' : ''} ${recalled ? 'ticket-recalled' : ''}`} data-order={tk.id} aria-label={t('kds.ticketLabel', { n: tk.number })}>
        <header class="ticket-head">
          <div>
            <span class="ticket-no">#{tk.number}</span>
            {isNew ? <span class="tag tag-new">{t('kds.new')}</span> : null}
            {rounds > 1 ? <span class="tag tag-round">{t('kds.round', { n: rounds })}</span> : null}
            {recalled ? <span class="tag">{t('kds.recalled')}</span> : null}
          </div>
          <Age from={from} />
          <div class="ticket-where">{destination(tk)}</div>
          {serverName(tk) ? <div class="ticket-server">{serverName(tk)}</div> : null}
        </header>
        <ul class="ticket-lines">
          {tk.lines.map((l) => (
            <li key={l.index}>
              <button
                type="button"
                class={`line line-${l.status} ${l.round > 1 && l.round === rounds ? 'line-newround' : ''}`}
                onClick={() => onTap(tk, l)}
                disabled={!nextStatus(l.status) || busyKeys.has(`${tk.id}:${l.index}`)}
                data-line={l.index}
              >
                <span class="line-main">
                  <span class="line-qty">{l.quantity}×</span> {l.name}
                  {l.seat ? <span class="line-seat"> · S{l.seat}</span> : null}
                  <span class="line-state">{t(`kds.line.${l.status}` as 'kds.line.pending')}</span>
                </span>
                {l.modifiers.length ? <span class="line-mods">{l.modifiers.join(', ')}</span> : null}
                {l.notes ? <Note text={l.notes} class="line-note" /> : null}
              </button>
            </li>
          ))}
        </ul>
        {tk.notes ? <Note text={tk.notes} class="ticket-note" block /> : null}
        <button type="button" class="kbtn bump" onClick={() => onBump(tk)} disabled={busyKeys.has(tk.id)}>
          {t('kds.bump')}
        </button>
      </article>
    );
  },
  (a, b) => a.tk === b.tk && a.warn === b.warn && a.late === b.late && a.board === b.board && a.recalled === b.recalled && a.busy === b.busy,
);
