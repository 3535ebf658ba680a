import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Context } from 'koa';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { ApiError, type ErrorCode } from '../errors.ts';
import { authenticate } from '../http/authenticate.ts';
import type { Services } from '../services.ts';
import { CLOSE, RealtimeClient } from './client.ts';
import type { RealtimeHub } from './hub.ts';
import { SUBPROTOCOL, type RealtimeOptions } from './options.ts';
import { resolveSession } from '../domain/staff/sessions.ts';
import { clientIp, lifetimeOf, SESSION_COOKIE } from '../http/session.ts';
import { hostAllowed } from '../http/hosts.ts';
import { clientMessage, keyFromProtocols, type ClientMessage } from './protocol.ts';
import { parseTopic, scopeOf, type Topic } from './topics.ts';
import type { ScreenBinding } from '../http/screen-keys.ts';

export const REALTIME_PATH = '/realtime';

/** The WebSocket endpoint on the API's own HTTP server: handshake, authentication, requests. */
export class RealtimeSocketServer {
  private readonly wss: WebSocketServer;
  /** open sockets per address */
  private readonly perAddress = new Map<string, number>();

  constructor(
    private readonly services: Services,
    private readonly hub: RealtimeHub,
    private readonly opts: RealtimeOptions,
  ) {
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: opts.maxMessageBytes,
      // A browser sends the key as a second subprotocol; the answer names only ours.
      handleProtocols: (protocols) => (protocols.has(SUBPROTOCOL) ? SUBPROTOCOL : false),
    });
  }

  /** Takes over an upgrade request for /realtime; false when the path is someone else's. */
  handleUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const path = (req.url ?? '').split('?')[0];
    if (path !== REALTIME_PATH) return false;
    const address = clientIp({ req, get: (h: string) => String(req.headers[h.toLowerCase()] ?? '') } as unknown as Context, this.services);
    if ((this.perAddress.get(address) ?? 0) >= this.opts.maxSocketsPerAddress) {
      this.services.logger.warn({ address }, 'realtime: too many sockets from one address');
      socket.end('HTTP/1.1 429 Too Many Requests\r\nRetry-After: 10\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return true;
    }
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    let counted = true;
    const release = () => {
      if (!counted) return;
      counted = false;
      const n = (this.perAddress.get(address) ?? 1) - 1;
      if (n <= 0) this.perAddress.delete(address);
      else this.perAddress.set(address, n);
    };
    socket.once('close', release);
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      ws.once('close', release);
      this.onConnection(ws, req, address);
    });
    return true;
  }

  close(): void {
    this.wss.close();
  }

  private onConnection(ws: WebSocket, req: http.IncomingMessage, address: string): void {
    const client = new RealtimeClient(ws, this.opts.maxBufferedBytes, this.services.logger);
    client.address = address;
    this.hub.add(client);
    // Messages of one client are handled one after the other, in the order sent.
    let chain: Promise<void> = Promise.resolve();
    const key = keyFromProtocols(req.headers['sec-websocket-protocol']);
    if (key) chain = chain.then(() => this.authStaff(client, key));
    const authTimer = setTimeout(() => {
      if (!client.principal) client.error('api_key_missing', 'Authenticate within the first seconds of the connection.', CLOSE.authTimeout);
    }, this.opts.authTimeoutMs);
    authTimer.unref();
    ws.on('pong', () => {
      client.alive = true;
    });
    ws.on('message', (data, isBinary) => {
      chain = chain
        .then(() => this.onMessage(client, data, isBinary, req))
        .catch((err) => {
          this.services.logger.error({ err }, 'realtime: message failed');
          client.error('internal_error', 'Something went wrong on our side.');
        });
    });
    ws.on('close', () => {
      client.closed = true;
      clearTimeout(authTimer);
      this.hub.remove(client);
    });
    ws.on('error', (err) => this.services.logger.debug({ err }, 'realtime: socket error'));
  }

  private async onMessage(client: RealtimeClient, data: RawData, isBinary: boolean, req: http.IncomingMessage): Promise<void> {
    if (client.closed) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(isBinary ? '' : data.toString());
    } catch {
      return this.refuse(client, 'invalid_json', 'Messages are JSON text.');
    }
    const result = clientMessage.safeParse(parsed);
    if (!result.success) {
      const issue = result.error.issues[0];
      return this.refuse(client, 'parameter_invalid', `Invalid message: ${issue.path.join('.') || 'message'}: ${issue.message}`);
    }
    const msg = result.data;
    if (msg.type === 'auth') {
      if (client.principal) return client.error('parameter_invalid', 'Already authenticated.');
      if (msg.key !== undefined) return this.authStaff(client, msg.key);
      if (msg.session) return this.authSession(client, req);
      if (msg.session_token !== undefined) return this.authSession(client, req, msg.session_token);
      return this.authGuest(client, msg.kind!, msg.token!);
    }
    if (!client.principal) return client.error('api_key_missing', 'Authenticate first: {"type":"auth","key":…}.', CLOSE.unauthorized);
    if (msg.type === 'ping') return client.sendMessage('pong', client.pending === 0 ? this.hub.positionOf(client.principal.restaurantId) : null);
    if (msg.type === 'unsubscribe') {
      for (const name of msg.topics) client.topics.delete(name);
      return client.sendMessage('unsubscribed', null, { topics: [...client.topics.keys()] });
    }
    return this.subscribe(client, msg);
  }

  /** Before authentication every refusal closes the socket; after it the socket stays. */
  private refuse(client: RealtimeClient, code: ErrorCode, message: string): void {
    client.error(code, message, client.principal ? undefined : CLOSE.unauthorized);
  }

  private async authStaff(client: RealtimeClient, key: string): Promise<void> {
    const kind = key.startsWith('wk_') ? 'widget' : 'secret';
    // the HTTP authenticator reads the key from a header: hand it one
    const ctx = { get: (h: string) => (h.toLowerCase() === 'x-api-key' ? key : '') } as unknown as Context;
    try {
      const caller = await authenticate(ctx, this.services, kind, undefined);
      client.principal = {
        kind: 'staff',
        restaurantId: caller.restaurantId,
        livemode: caller.livemode,
        scopes: caller.scopes,
        keyKind: caller.kind,
        credential: { kind: 'key', keyId: caller.keyId },
        ...(caller.screen && { screen: caller.screen }),
      };
      this.hub.register(client);
      client.sendMessage('authenticated', null, { restaurant: caller.restaurantId, livemode: caller.livemode, key_type: caller.kind });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // 4401 bad key, 4403 key of the wrong kind, 4429 the key's rate limit
      client.error(err.code, err.message, 4000 + err.status);
    }
  }

  /**
   * A staff session (the back office) from the cookie of the upgrade request. Browsers send
   * cookies on a WebSocket to any site's page, so the page must be one of ours: its Origin
   * must name the host it connected to, and that host must be one of the server's names (a
   * rebound name is its own origin: http/hosts.ts). A token sent in the message (a device
   * working through the cloud, docs/contributors/two-homes.md) is no ambient credential: any
   * origin may send it, as any may send a key.
   */
  private async authSession(client: RealtimeClient, req: http.IncomingMessage, sent?: string): Promise<void> {
    const origin = req.headers.origin;
    let sameOrigin = false;
    try {
      sameOrigin = origin !== undefined && new URL(origin).host === req.headers.host;
    } catch {
      sameOrigin = false;
    }
    const token = sent ?? (sameOrigin && hostAllowed(this.services, req.headers.host) ? cookieValue(req.headers.cookie, SESSION_COOKIE) : null);
    const session = token ? await resolveSession(this.services.db, token, this.services.clock.now(), lifetimeOf(this.services)) : null;
    if (!session) return client.error('not_signed_in', 'No staff session came with this connection. Sign in again.', CLOSE.unauthorized);
    client.principal = { kind: 'staff', restaurantId: session.restaurantId, livemode: true, scopes: session.scopes, keyKind: 'secret', credential: { kind: 'session', sessionId: session.id } };
    this.hub.register(client);
    client.sendMessage('authenticated', null, { restaurant: session.restaurantId, livemode: true, key_type: 'session', role: session.access });
  }

  private async authGuest(client: RealtimeClient, kind: string, token: string): Promise<void> {
    const resolve = this.services.registry.realtime.guestTokens.get(kind);
    if (!resolve) return client.error('parameter_invalid', `Unknown token kind '${kind}'.`, CLOSE.unauthorized);
    const limits = this.services.registry.realtime.guestLimits;
    let grant;
    try {
      // as a guest request: the address's budget before the token is looked up, the restaurant's after
      limits?.address(this.services, client.address);
      grant = await resolve(this.services, token);
      if (grant) limits?.restaurant(this.services, grant.restaurantId, client.address);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return client.error(err.code, err.message, err.status === 429 ? 4429 : CLOSE.unauthorized);
    }
    if (!grant) return client.error('resource_missing', 'Unknown or expired token.', CLOSE.unauthorized);
    client.principal = { kind: 'guest', restaurantId: grant.restaurantId, grant };
    this.hub.register(client);
    client.sendMessage('authenticated', null, { restaurant: grant.restaurantId, guest: kind });
  }

  private async subscribe(client: RealtimeClient, msg: Extract<ClientMessage, { type: 'subscribe' }>): Promise<void> {
    const p = client.principal!;
    const topics: Topic[] = [];
    // a topic named twice is one topic: checked once, replayed once
    for (const name of new Set(msg.topics)) {
      const topic = parseTopic(name, this.services.registry.realtime);
      if (!topic) return client.error('parameter_invalid', `Unknown topic '${name}'.`);
      if (p.kind === 'guest') {
        // never say whether someone else's order exists
        if (!(await p.grant.mayFollow(topic, this.services))) return client.error('resource_missing', `No such topic for this token: '${name}'.`);
      } else {
        if (!p.scopes.has(scopeOf(topic))) return client.error('insufficient_scope', `This API key lacks the required scope '${scopeOf(topic)}'.`);
        const screenRefusal = p.screen && screenTopicRefusal(p.screen, topic);
        if (screenRefusal) return client.error('insufficient_scope', screenRefusal);
        const refusal = await this.checkStaffTopic(p.restaurantId, p.livemode, topic);
        if (refusal) return client.error(refusal[0], refusal[1]);
      }
      topics.push(topic);
    }
    await this.hub.subscribe(client, topics, msg.since ?? null);
  }

  /**
   * One order must be the restaurant's and of the key's mode (an order of the other mode is
   * answered like an unknown one: a sandbox key never learns whether a live order exists);
   * a station must exist there.
   */
  private async checkStaffTopic(restaurantId: string, livemode: boolean, topic: Topic): Promise<[ErrorCode, string] | null> {
    const db = this.services.db;
    if (topic.kind === 'order') {
      const row = await db.selectFrom('orders').select(['id', 'livemode']).where('restaurant_id', '=', restaurantId).where('id', '=', topic.id).executeTakeFirst();
      return row && Number(row.livemode) === (livemode ? 1 : 0) ? null : ['resource_missing', `No such order: '${topic.id}'`];
    }
    if (topic.kind === 'station') {
      const row = await db.selectFrom('stations').select('id').where('restaurant_id', '=', restaurantId).where('key', '=', topic.station).executeTakeFirst();
      return row ? null : ['unknown_station', `No such station: '${topic.station}'`];
    }
    return null;
  }
}

/** A paired screen follows its station (an expo screen: every order, any station) and the stations' settings, nothing else. */
function screenTopicRefusal(screen: ScreenBinding, topic: Topic): string | null {
  // every screen shows the stations' names and ticket colours (its config): it follows their changes
  if (topic.kind === 'collection' && topic.feed.table === 'stations') return null;
  if (screen.station === null) return topic.kind === 'orders' || topic.kind === 'station' ? null : `An expo screen follows 'orders' and stations, not '${topic.name}'.`;
  return topic.kind === 'station' && topic.station === screen.station ? null : `This screen was paired for the '${screen.station}' station: it follows 'station:${screen.station}' only.`;
}

function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}
