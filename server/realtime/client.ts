import type { WebSocket } from 'ws';
import type { ScreenBinding } from '../http/screen-keys.ts';
import type { ErrorCode } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { GuestGrant } from './guest-tokens.ts';
import type { Topic } from './topics.ts';

/** What a staff socket signed in with, so revoking it can close the socket (realtime/credentials.ts). */
export type Credential = { kind: 'key'; keyId: string } | { kind: 'session'; sessionId: string };

/** Who is on the other end, once authenticated. */
export type Principal =
  | {
      kind: 'staff';
      restaurantId: string;
      livemode: boolean;
      scopes: ReadonlySet<string>;
      keyKind: 'secret' | 'widget';
      credential: Credential;
      /** a paired screen's key: what it may follow and see (http/screen-keys.ts) */
      screen?: ScreenBinding;
    }
  | { kind: 'guest'; restaurantId: string; grant: GuestGrant };

/** Close codes (4000–4999 are the application's: 4000 + the HTTP status of the same refusal). */
export const CLOSE = {
  unauthorized: 4401,
  authTimeout: 4408,
  goingAway: 1001,
} as const;

/** One connected screen: its socket, who it is, what it follows live. */
export class RealtimeClient {
  principal: Principal | null = null;
  /** topics delivered live, by name */
  readonly topics = new Map<string, Topic>();
  /** subscribe requests still being replayed: heartbeats must not claim a seq meanwhile */
  pending = 0;
  /** answered the last ping */
  alive = true;
  closed = false;
  /** set by the hub: forget this client the moment it is cut off, not when the socket finally closes */
  onGone: () => void = () => {};

  /** the peer as the rate limits see it (http/session.ts clientIp) */
  address = '';

  constructor(
    readonly ws: WebSocket,
    private readonly maxBufferedBytes: number,
    private readonly logger: Logger,
  ) {}

  /**
   * Sends without waiting: the socket buffers. A client that does not read lets its backlog
   * grow; past the limit it is cut off, so one stuck tablet never holds back the others.
   */
  send(text: string | Buffer): void {
    if (this.closed) return;
    if (this.ws.bufferedAmount > this.maxBufferedBytes) {
      this.logger.warn({ restaurant: this.principal?.restaurantId, buffered: this.ws.bufferedAmount }, 'realtime: slow client cut off');
      this.terminate();
      return;
    }
    // a Buffer is sent as is (a text frame): no re-encoding per screen
    this.ws.send(text, { binary: false });
  }

  sendMessage(type: string, seq: number | null, data: unknown = null): void {
    this.send(JSON.stringify({ type, seq, data }));
  }

  /** Reports an error; for auth errors the socket is closed right after. */
  error(code: ErrorCode, message: string, closeCode?: number): void {
    this.sendMessage('error', null, { code, message });
    if (closeCode !== undefined) this.close(closeCode, code);
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.ws.close(code, reason);
  }

  terminate(): void {
    this.closed = true;
    this.ws.terminate();
    this.onGone();
  }
}
