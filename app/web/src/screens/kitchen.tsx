import { computed, signal, type ReadonlySignal, type Signal } from '@preact/signals';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiFailure } from '../lib/api.ts';
import { GET, PATCH } from '../lib/client.ts';
import { t } from '../lib/i18n.ts';
import { memo } from '../lib/memo.ts';
import { chime, formatAge, justIn, makeBoard, nowSeconds, useBoard, type Board } from './board.ts';
import { cutRuns } from './runs.ts';
import { config, staffName } from './device.ts';
import { ScreenBar, useSound } from './frame.tsx';
import { allDay, fromLive, fromPublic, isAllergyNote, nextStatus, onKitchen, senderOf, startedAt, type Line, type LineStatus, type Ticket } from './tickets.ts';

const FIELDS = 'id,orderNumber,type,status,table,tableNumber,server,customerName,notes,placedAt,total,currency,items';
const RECALL_DEPTH = 20;
const FLASH_GAP_MS = 1500;

/** Where the ticket goes: a table, a takeout name, a delivery. */
export function destination(tk: Ticket): string {
  if (tk.type === 'dine_in') return tk.tableNumber !== null ? t('kds.table', { n: tk.tableNumber }) : t('kds.dineIn');
  if (tk.type === 'delivery') return tk.customerName ? `${t('kds.delivery')} · ${tk.customerName}` : t('kds.delivery');
  return tk.customerName ? `${t('kds.takeout')} · ${tk.customerName}` : t('kds.takeout');
}

/** The name heading a ticket: who sent its newest round (see senderOf). */
export const serverName = (tk: Ticket): string | null => staffName(senderOf(tk));

/** A guest's note on a line or an order; an allergy or intolerance stands out wherever it is shown. */
export function Note({ text, class: cls, block }: { text: string; class: string; block?: boolean }) {
  const allergy = isAllergyNote(text);
  const Tag = block ? 'p' : 'span';
  return <Tag class={`${cls} ${allergy ? 'allergy' : ''}`}>{allergy ? `⚠ ${text}` : text}</Tag>;
}

const recallKey = (station: string) => `comanda.recall.${station}`;
/** The tickets bumped on this device, newest first, as it last saw them. */
function storedRecall(station: string): Ticket[] {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(recallKey(station)) ?? '[]');
    return Array.isArray(list) ? list.filter((x): x is Ticket => typeof x?.id === 'string' && Array.isArray(x.lines)).slice(0, RECALL_DEPTH) : [];
  } catch {
    return [];
  }
}

export function KitchenScreen({ station }: { station: string }) {
  const [board] = useState(makeBoard);
  const [sound, setSound, soundNow] = useSound();
  const [flash] = useState(() => signal(0));
  const lastFlash = useRef(0);
  const [error, setError] = useState<string | null>(null);
  // signals, not component state: a new order redraws the list and the all-day count, not the screen
  const [desk] = useState(() => {
    // the tickets bumped here, newest first: kept on the device, so a reload keeps what can be recalled
    const bumped = signal<string[]>(storedRecall(station).map((tk) => tk.id));
    bumped.subscribe((ids) => {
      try {
        const tickets = ids.flatMap((id) => board.tickets.value.get(id) ?? storedRecall(station).find((tk) => tk.id === id) ?? []);
        localStorage.setItem(recallKey(station), JSON.stringify(tickets));
      } catch {
        // a full or private storage: the list lives as long as the page
      }
    });
    const recalled = signal<string[]>([]);
    const busy = signal<ReadonlySet<string>>(new Set());
    // oldest first; each ticket's start worked out once, not in every comparison
    const shown = computed(() => {
      const back = recalled.value;
      return [...board.tickets.value.values()]
        .filter((tk) => onKitchen(tk) || back.includes(tk.id))
        .map((tk) => ({ tk, at: startedAt(tk) ?? 0 }))
        .sort((a, b) => a.at - b.at || a.tk.id.localeCompare(b.tk.id))
        .map((x) => x.tk);
    });
    // a ticket that left the screen (bumped here or on another screen) can be recalled
    const recallable = computed(() => {
      const tickets = board.tickets.value;
      const back = recalled.value;
      return bumped.value.filter((id) => {
        const tk = tickets.get(id);
        return tk !== undefined && !onKitchen(tk) && !back.includes(id);
      });
    });
    return { bumped, recalled, busy, shown, recallable };
  });
  const [tables] = useState(() => computed(() => new Map((config.value?.tables ?? []).map((x) => [x.id, x.number]))));
  const st = config.value?.stations.find((s) => s.key === station);
  const warn = (st?.warnAfterMinutes ?? 8) * 60;
  const late = (st?.lateAfterMinutes ?? 15) * 60;

  const forStation = (tk: Ticket): Ticket => ({ ...tk, lines: tk.lines.filter((l) => l.station === station) });
  useBoard(
    {
      topic: `station:${station}`,
      load: async () => {
        const list = (await GET('/public/orders/kitchen', { query: { station, fields: FIELDS } })).data.map((o) => forStation(fromPublic(o)));
        // the tickets bumped here before a reload are no longer in the kitchen's list: they come
        // back as this screen last saw them (the live feed brings any change once recalled)
        const have = new Set(list.map((tk) => tk.id));
        const kept = new Set(desk.bumped.value);
        return [...list, ...storedRecall(station).filter((tk) => kept.has(tk.id) && !have.has(tk.id))];
      },
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

  const setBusy = (key: string, on: boolean) => {
    const next = new Set(desk.busy.value);
    if (on) next.add(key);
    else next.delete(key);
    desk.busy.value = next;
  };
  const run = async (key: string, fn: () => Promise<void>) => {
    setBusy(key, true);
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(e instanceof ApiFailure ? e.message : String(e));
    } finally {
      setBusy(key, false);
    }
  };
  const move = (tk: Ticket, line: Line, to: LineStatus) =>
    PATCH('/public/orders/{id}/items/{itemIndex}/status', { path: { id: tk.id, itemIndex: line.index }, body: { status: to, station } }).then((o) => board.put(forStation(fromPublic(o))));

  const tap = (tk: Ticket, line: Line) => {
    const to = nextStatus(line.status);
    if (!to) return;
    void run(`${tk.id}:${line.index}`, () => move(tk, line, to));
  };
  const putBack = (tk: Ticket) => {
    desk.recalled.value = desk.recalled.value.filter((id) => id !== tk.id);
    desk.bumped.value = [tk.id, ...desk.bumped.value.filter((id) => id !== tk.id)].slice(0, RECALL_DEPTH);
  };
  const bump = (tk: Ticket) =>
    void run(tk.id, async () => {
      for (const line of tk.lines) if (line.status === 'pending' || line.status === 'preparing') await move(tk, line, 'ready');
      putBack(tk);
    });
  // a recalled ticket bumped again goes back on top of the recall list: recallable as often as needed
  const recall = () => {
    const id = desk.recallable.value[0];
    if (!id) return;
    desk.recalled.value = [...desk.recalled.value, id];
    desk.bumped.value = desk.bumped.value.filter((x) => x !== id);
  };
  // the cards get the same two handlers on every draw (they call the latest ones)
  const acts = useRef({ tap, bump, putBack });
  acts.current = { tap, bump, putBack };
  const [handlers] = useState(() => ({
    onTap: (tk: Ticket, line: Line) => acts.current.tap(tk, line),
    onBump: (tk: Ticket) => (onKitchen(tk) ? acts.current.bump(tk) : acts.current.putBack(tk)),
  }));

  return (
    <div class="kds">
      <Flash count={flash} />
      <ScreenBar title={st?.name ?? station} chooser>
        <RecallButton recallable={desk.recallable} onClick={recall} />
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
        <TicketList board={board} shown={desk.shown} recalled={desk.recalled} busy={desk.busy} warn={warn} late={late} onTap={handlers.onTap} onBump={handlers.onBump} />
        <AllDay shown={desk.shown} />
      </div>
    </div>
  );
}

function RecallButton({ recallable, onClick }: { recallable: ReadonlySignal<string[]>; onClick: () => void }) {
  const n = recallable.value.length;
  return (
    <button type="button" class="kbtn" onClick={onClick} disabled={!n}>
      {t('kds.recall')}
      {n ? ` (${n})` : ''}
    </button>
  );
}

/** How many of each item are still to cook, across the tickets shown. */
function AllDay({ shown }: { shown: ReadonlySignal<Ticket[]> }) {
  const counts = allDay(shown.value);
  return (
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
  );
}

/** Tickets in a run: a run whose tickets all stay as they were is skipped whole. */
const RUN = 8;

interface ListProps {
  board: Board;
  shown: ReadonlySignal<Ticket[]>;
  recalled: ReadonlySignal<string[]>;
  busy: ReadonlySignal<ReadonlySet<string>>;
  warn: number;
  late: number;
  onTap: (tk: Ticket, line: Line) => void;
  onBump: (tk: Ticket) => void;
}

/**
 * Tickets drawn in full at first, and drawn on each time the cook scrolls within a screen of the
 * first one not drawn yet: a few screenfuls. The others are in the list as their frame with their
 * number (`TicketLater`), so the list, its order and its scroll length are whole. A kitchen with
 * a backlog gets its new orders at the end, out of sight: each cost the screen a card of some 25
 * elements to build, and its age rewritten every second, for a card nobody could see.
 */
const PAGE = 24;

/**
 * The tickets, in runs that keep their members from one draw to the next (`cutRuns`): a new
 * order (it goes to the end) or a bump redraws one run, and the list compares a few runs
 * instead of every card on the screen.
 */
function TicketList({ board, shown, recalled, busy, warn, late, onTap, onBump }: ListProps) {
  const members = useRef(new Map<string, number>());
  const lastKey = useRef(0);
  const [limit, setLimit] = useState(PAGE);
  const list = useRef<HTMLElement>(null);
  const tickets = shown.value;
  const later = tickets.length > limit;
  // observed again after each page, so a page that leaves the next one in reach draws it too
  useEffect(() => {
    const next = later ? list.current?.querySelector('.ticket-later') : null;
    if (!next) return;
    const seen = new IntersectionObserver((es) => es.some((e) => e.isIntersecting) && setLimit((l) => l + PAGE), { root: list.current, rootMargin: '0px 0px 100% 0px' });
    seen.observe(next);
    return () => seen.disconnect();
  }, [limit, later]);
  const cut = cutRuns(tickets, members.current, () => ++lastKey.current, RUN);
  members.current = cut.members;
  const common = { fresh: board.fresh.value, recalled: recalled.value, busy: busy.value, warn, late, onTap, onBump };
  let first = 0;
  return (
    <main class="kds-tickets" aria-label={t('kds.tickets')} ref={list}>
      {!board.loaded.value ? <p class="kds-empty">{t('kds.loading')}</p> : !tickets.length ? <p class="kds-empty">{t('kds.empty')}</p> : null}
      {cut.runs.map((r) => {
        const drawn = Math.max(0, Math.min(r.tickets.length, limit - first));
        first += r.tickets.length;
        return <TicketRun key={r.key} tickets={r.tickets} drawn={drawn} {...common} />;
      })}
    </main>
  );
}

interface RunProps {
  tickets: Ticket[];
  /** how many of them (the first) are drawn in full */
  drawn: number;
  /** the board's "just in" marks (set only with their ticket) */
  fresh: ReadonlyMap<string, number>;
  recalled: string[];
  busy: ReadonlySet<string>;
  warn: number;
  late: number;
  onTap: (tk: Ticket, line: Line) => void;
  onBump: (tk: Ticket) => void;
}

const TicketRun = memo(
  function TicketRun({ tickets, drawn, fresh, recalled, busy, warn, late, onTap, onBump }: RunProps) {
    return (
      <>
        {tickets.map((tk, i) =>
          i < drawn ? (
            <TicketCard
              key={tk.id}
              tk={tk}
              warn={warn}
              late={late}
              freshAt={fresh.get(tk.id)}
              recalled={recalled.includes(tk.id)}
              busy={busy.size ? [...busy].filter((k) => k === tk.id || k.startsWith(`${tk.id}:`)).join(',') : ''}
              onTap={onTap}
              onBump={onBump}
            />
          ) : (
            <TicketLater key={tk.id} tk={tk} />
          ),
        )}
      </>
    );
  },
  (a, b) =>
    a.drawn === b.drawn &&
    a.warn === b.warn &&
    a.late === b.late &&
    a.recalled === b.recalled &&
    a.busy === b.busy &&
    a.tickets.length === b.tickets.length &&
    a.tickets.every((tk, i) => tk === b.tickets[i] && sameMark(a.fresh.get(tk.id), b.fresh.get(tk.id))),
);

/** A ticket beyond the tickets drawn so far: its place in the list, with its number. */
const TicketLater = memo(
  ({ tk }: { tk: Ticket }) => (
    <article class="ticket ticket-later" data-order={tk.id} aria-label={t('kds.ticketLabel', { n: tk.number })}>
      <span class="ticket-no">#{tk.number}</span>
    </article>
  ),
  (a, b) => a.tk.id === b.tk.id && a.tk.number === b.tk.number,
);

interface CardProps {
  tk: Ticket;
  warn: number;
  late: number;
  /** when the ticket came in (or got a new round), in the device's seconds, if it did lately */
  freshAt: number | undefined;
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
  const text = useMemo(() => computed(() => formatAge(from === null ? 0 : nowSeconds.value - from)), [from]);
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
 * One ticket. Drawn again only when its order, flags or thresholds change (the handlers are the
 * same functions on every draw). Its colour and its "new" mark follow the clock as a class bound
 * straight to the element: the tick that turns them sets one attribute and draws nothing.
 */
const TicketCard = memo(
  function TicketCard({ tk, warn, late, freshAt, recalled, busy, onTap, onBump }: CardProps) {
    const from = startedAt(tk);
    const cls = useMemo(
      () =>
        computed(() => {
          const now = nowSeconds.value;
          const age = from === null ? 0 : now - from;
          const tone = age >= late ? 'late' : age >= warn ? 'warn' : 'ok';
          const isNew = justIn(freshAt, now);
          return `ticket ticket-${tone}${isNew ? ' ticket-new' : ''}${recalled ? ' ticket-recalled' : ''}`;
        }),
      [from, warn, late, freshAt, recalled],
    );
    const rounds = Math.max(...tk.lines.map((l) => l.round));
    const busyKeys = new Set(busy.split(','));
    return (
      <article class={cls} data-order={tk.id} aria-label={t('kds.ticketLabel', { n: tk.number })}>
        <header class="ticket-head">
          <div>
            <span class="ticket-no">#{tk.number}</span>
            {/* shown by the class above while the ticket is new */}
            <span class="tag tag-new">{t('kds.new')}</span>
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
  (a, b) => a.tk === b.tk && a.warn === b.warn && a.late === b.late && sameMark(a.freshAt, b.freshAt) && a.recalled === b.recalled && a.busy === b.busy,
);

/** Two "just in" marks that draw the same: equal, or both too old to show (the old one was only dropped from the list). */
const sameMark = (a: number | undefined, b: number | undefined) => a === b || (!justIn(a, nowSeconds.peek()) && !justIn(b, nowSeconds.peek()));
