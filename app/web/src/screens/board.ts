import { signal, type Signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { live, type LiveMessage } from '../lib/live.ts';
import type { Ticket } from './tickets.ts';

export interface Board {
  tickets: Signal<Map<string, Ticket>>;
  /**
   * When each ticket came in (or got a new round), in the device's seconds: marked "just in"
   * for a few seconds, undone on the clock's own tick (no extra redraw per ticket)
   */
  fresh: Signal<Map<string, number>>;
  loaded: Signal<boolean>;
  /** replace one ticket by what the API answered (a tap), as a live message would */
  put(t: Ticket): void;
}

interface Options {
  topic: string;
  load: () => Promise<Ticket[]>;
  fromMessage: (order: any) => Ticket;
  /** whether a ticket is on this screen */
  shows: (t: Ticket) => boolean;
  onNew: (t: Ticket) => void;
}

/**
 * The orders of one live topic, kept exactly right: the current state is loaded over HTTP at
 * once and again when the server confirms the topic is followed; messages that arrive during a load are held and applied
 * after it in order (the last one is the newest state), so nothing is lost or doubled. On a
 * reconnect the shared feed resumes by seq; on `resync` the state is loaded again.
 */
export function useBoard(opts: Options, board: Board): void {
  useEffect(() => {
    let loading = false;
    let held: any[] = [];
    let cancelled = false;

    const apply = (t: Ticket, announce: boolean) => {
      const before = board.tickets.value.get(t.id);
      const next = new Map(board.tickets.value);
      next.set(t.id, t);
      board.tickets.value = next;
      if (!announce || !opts.shows(t)) return;
      const wasShown = before ? opts.shows(before) : false;
      const knownLines = new Set(before?.lines.map((l) => l.index) ?? []);
      const newRound = wasShown && t.lines.some((l) => !knownLines.has(l.index));
      if (!wasShown || newRound) {
        const now = nowSeconds.value;
        const marks = new Map([...board.fresh.value].filter(([, at]) => justIn(at, now)));
        board.fresh.value = marks.set(t.id, now);
        opts.onNew(t);
      }
    };

    let again = false;
    const reload = async () => {
      // a reload asked for during a load runs after it (the first one may predate the follow)
      if (loading) {
        again = true;
        return;
      }
      loading = true;
      do {
        again = false;
        for (;;) {
          try {
            const list = await opts.load();
            if (cancelled) return;
            board.tickets.value = new Map(list.map((t) => [t.id, t]));
            break;
          } catch {
            // the hub is out of reach: try again shortly, the screen keeps what it has
            await new Promise((r) => setTimeout(r, 2000));
            if (cancelled) return;
          }
        }
      } while (again);
      loading = false;
      board.loaded.value = true;
      const queue = held;
      held = [];
      for (const o of queue) apply(opts.fromMessage(o), true);
    };

    const onMessage = (m: LiveMessage) => {
      if (m.type === 'order.deleted') {
        const next = new Map(board.tickets.value);
        next.delete(m.data.id);
        board.tickets.value = next;
        return;
      }
      if (m.type !== 'order') return;
      if (loading) held.push(m.data);
      else apply(opts.fromMessage(m.data), true);
    };

    // loaded at once so the screen fills fast, and again once the server confirms the topic:
    // an order placed between the first load and the follow would otherwise never show
    const stop = live.listen([opts.topic], onMessage, () => void reload());
    void reload();
    return () => {
      cancelled = true;
      stop();
    };
  }, [opts.topic]);
}

export function makeBoard(): Board {
  const board: Board = {
    tickets: signal(new Map<string, Ticket>()),
    fresh: signal(new Map<string, number>()),
    loaded: signal(false),
    put(t) {
      const next = new Map(board.tickets.value);
      next.set(t.id, t);
      board.tickets.value = next;
    },
  };
  return board;
}

const JUST_IN_SECONDS = 4;

/** Whether a ticket marked new at `at` (none: never) is still "just in" at `now` (seconds). */
export const justIn = (at: number | undefined, now: number): boolean => at !== undefined && now - at < JUST_IN_SECONDS;

/** Whether a ticket is still "just in" (read inside a render or a computed: it follows the clock). */
export const isJustIn = (board: Board, id: string): boolean => justIn(board.fresh.value.get(id), nowSeconds.value);

/** A second hand for the age timers: it runs on the device's clock, with or without the hub. */
export const nowSeconds = signal(Math.floor(Date.now() / 1000));
setInterval(() => (nowSeconds.value = Math.floor(Date.now() / 1000)), 1000);

export function formatAge(seconds: number): string {
  const s = Math.max(0, seconds);
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}

let audio: AudioContext | null = null;
let lastChime = 0;
let sleepTimer: ReturnType<typeof setTimeout> | undefined;
/** tickets arriving together ring once: chimes closer than this would only overlap */
const CHIME_GAP_MS = 1500;

/**
 * A short two-tone chime made on the spot (no sound file to fetch), on the page's one audio
 * context (a context per ticket costs an audio thread each). Browsers start it suspended until
 * the screen is first touched, so the first tap anywhere wakes it. Between chimes the context
 * is suspended again: a running one keeps an audio thread busy mixing silence.
 */
export function chime(): void {
  const now = Date.now();
  if (now - lastChime < CHIME_GAP_MS) return;
  lastChime = now;
  // counted on the page, so a test (or a curious cook's support call) can see that it rang
  const root = document.documentElement;
  root.dataset.chimes = String(Number(root.dataset.chimes ?? 0) + 1);
  // rung after the frame that shows the ticket: waking the audio thread costs more than drawing it
  requestAnimationFrame(() => setTimeout(ring, 0));
}

function ring(): void {
  try {
    const Ctx = (globalThis as any).AudioContext ?? (globalThis as any).webkitAudioContext;
    if (!Ctx) return;
    if (!audio) {
      audio = new Ctx() as AudioContext;
      addEventListener('pointerdown', () => void audio?.resume(), { once: true });
    }
    const ctx = audio;
    if (ctx.state === 'suspended') void ctx.resume().catch(() => {});
    [880, 1320].forEach((hz, i) => {
      const o = ctx.createOscillator();
      const g = ctx.createGain();
      o.frequency.value = hz;
      g.gain.setValueAtTime(0.25, ctx.currentTime + i * 0.18);
      g.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + i * 0.18 + 0.35);
      o.connect(g).connect(ctx.destination);
      o.start(ctx.currentTime + i * 0.18);
      o.stop(ctx.currentTime + i * 0.18 + 0.4);
    });
    clearTimeout(sleepTimer);
    sleepTimer = setTimeout(() => void ctx.suspend().catch(() => {}), 10_000);
  } catch {
    // no audio on this device: the flash still shows
  }
}
