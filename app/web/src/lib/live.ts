import { signal } from '@preact/signals';
import { cloudAuth, home, hubAnswered, hubSilent, onHomeSwitch, realtimeUrl } from './homes.ts';

export type LiveStatus = 'connecting' | 'online' | 'offline';

export interface LiveMessage {
  type: string;
  seq: number | null;
  topic?: string;
  data: any;
}

interface Listener {
  topics: string[];
  onMessage: (m: LiveMessage) => void;
  /**
   * Load the view again from the API: once the server confirms the topics (from there on no
   * message is missed; a load made before may have missed one), and whenever the feed lost
   * messages (too far behind, another server).
   */
  reload: () => void;
  following?: boolean;
}

/**
 * The one `/realtime` connection of the page, shared by every live view. It signs in with the
 * staff session's cookie, follows the topics the views on screen ask for, and when the line
 * drops it shows "offline — reconnecting", comes back with growing pauses, and resumes from
 * the last seq it saw, so nothing is missed and nothing is applied twice. When the server
 * cannot replay that far it says `resync` and the views reload over HTTP. When the device moves
 * between the hub and the cloud (lib/homes.ts) it connects to the new home afresh: positions are
 * each node's own, so instead of resuming it reloads every view once the new home confirms the
 * topics (nothing missed from there on; a view replaces its state, so nothing shows twice).
 */
class LiveFeed {
  readonly status = signal<LiveStatus>('connecting');
  private ws: WebSocket | null = null;
  private lastSeq: number | null = null;
  private listeners = new Set<Listener>();
  private subscribed = new Set<string>();
  /** topics the server has confirmed on this connection */
  private confirmed = new Set<string>();
  private attempt = 0;
  private retryTimer: number | undefined;
  private pingTimer: number | undefined;
  private awaitingPong = false;
  private stopped = true;
  private auth: Record<string, unknown> = { type: 'auth', session: true };
  private onRefused: ((code: string) => void) | null = null;

  constructor() {
    onHomeSwitch(() => {
      if (this.stopped) return;
      clearTimeout(this.retryTimer);
      clearInterval(this.pingTimer);
      const old = this.ws;
      this.ws = null;
      old?.close(1000, 'moving home');
      this.lastSeq = null;
      for (const l of this.listeners) l.following = false;
      this.attempt = 0;
      this.connect();
    });
  }

  /**
   * Screens and guest pages sign in with a paired device's key or a guest token instead of
   * the staff session (the same messages as any integration); `onRefused` hears a refusal
   * (a revoked device, a disabled QR code), after which the feed stops.
   */
  authWith(message: Record<string, unknown>, onRefused: (code: string) => void): void {
    this.auth = { type: 'auth', ...message };
    this.onRefused = onRefused;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
  }

  /** Signing out: close and forget the resume point (the next person starts fresh). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    this.ws?.close(1000, 'signed out');
    this.ws = null;
    this.lastSeq = null;
    this.subscribed.clear();
    this.confirmed.clear();
  }

  /** Follow topics; returns the function that stops following them. */
  listen(topics: string[], onMessage: Listener['onMessage'], reload: Listener['reload']): () => void {
    const l: Listener = { topics, onMessage, reload };
    this.listeners.add(l);
    this.start();
    this.subscribeMissing();
    // topics another view already follows send no new confirmation: this view follows them now
    if (topics.every((t) => this.confirmed.has(t))) {
      l.following = true;
      queueMicrotask(() => this.listeners.has(l) && reload());
    }
    return () => {
      this.listeners.delete(l);
      const still = new Set([...this.listeners].flatMap((x) => x.topics));
      const gone = [...this.subscribed].filter((t) => !still.has(t));
      if (gone.length && this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: 'unsubscribe', topics: gone }));
      for (const t of gone) {
        this.subscribed.delete(t);
        this.confirmed.delete(t);
      }
    };
  }

  private wanted(): string[] {
    return [...new Set([...this.listeners].flatMap((l) => l.topics))];
  }

  private connect(): void {
    if (this.stopped) return;
    this.status.value = this.attempt === 0 ? 'connecting' : 'offline';
    const ws = new WebSocket(realtimeUrl(), ['comanda.v1']);
    const at = home.value;
    this.ws = ws;
    this.subscribed.clear();
    this.confirmed.clear();
    ws.onopen = () => ws.send(JSON.stringify(cloudAuth() ?? this.auth));
    ws.onmessage = (ev) => this.onMessage(JSON.parse(String(ev.data)) as LiveMessage);
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      clearInterval(this.pingTimer);
      if (this.stopped) return;
      this.status.value = 'offline';
      if (at === 'hub') hubSilent();
      // 0.5 s, 1 s, 2 s … up to 10 s: a hub restarting is back within a breath, a dead line is not hammered
      const delay = Math.min(10_000, 500 * 2 ** this.attempt++);
      this.retryTimer = window.setTimeout(() => this.connect(), delay);
    };
  }

  private onMessage(m: LiveMessage): void {
    if (m.type === 'authenticated') {
      if (home.value === 'hub') hubAnswered();
      this.attempt = 0;
      this.status.value = 'online';
      this.subscribeMissing(true);
      this.startPings();
      return;
    }
    if (m.type === 'pong') {
      this.awaitingPong = false;
      return;
    }
    if (m.type === 'error' && this.onRefused && this.status.value !== 'online' && m.data?.code !== 'rate_limited') {
      const refused = this.onRefused;
      this.stop();
      refused(String(m.data?.code ?? 'unknown'));
      return;
    }
    if (m.type === 'error' && m.data?.code === 'not_signed_in') {
      this.stop();
      location.assign(`/app/login?next=${encodeURIComponent(location.pathname + location.search)}`);
      return;
    }
    if (m.type === 'resync') {
      for (const l of this.listeners) l.reload();
      return;
    }
    if (typeof m.seq === 'number' && (this.lastSeq === null || m.seq > this.lastSeq)) this.lastSeq = m.seq;
    if (m.type === 'subscribed') {
      for (const t of m.data?.topics ?? []) this.confirmed.add(String(t));
      for (const l of this.listeners) {
        if (l.following || !l.topics.every((t) => this.confirmed.has(t))) continue;
        l.following = true;
        l.reload();
      }
      return;
    }
    if (m.type === 'heartbeat' || m.type === 'unsubscribed') return;
    for (const l of this.listeners) if (!m.topic || l.topics.includes(m.topic)) l.onMessage(m);
  }

  private subscribeMissing(resume = false): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN || this.status.value !== 'online') return;
    const missing = this.wanted().filter((t) => !this.subscribed.has(t));
    if (!missing.length) return;
    for (const t of missing) this.subscribed.add(t);
    // after a reconnect the topics pick up right after the last message seen
    const since = resume && this.lastSeq !== null ? { since: this.lastSeq } : {};
    ws.send(JSON.stringify({ type: 'subscribe', topics: missing, ...since }));
  }

  /** A dead Wi-Fi does not always close the socket: no pong within 10 s counts as offline. */
  private startPings(): void {
    clearInterval(this.pingTimer);
    this.awaitingPong = false;
    this.pingTimer = window.setInterval(() => {
      const ws = this.ws;
      if (!ws) return;
      if (this.awaitingPong) {
        ws.close();
        return;
      }
      this.awaitingPong = true;
      ws.send(JSON.stringify({ type: 'ping' }));
    }, 10_000);
  }
}

export const live = new LiveFeed();
