import { randomBytes } from 'node:crypto';
import net from 'node:net';
import WebSocket from 'ws';

/** A live-screen client for tests: keeps every message and waits for the ones asked for. */
export class TestSocket {
  readonly messages: any[] = [];
  /** messages already handed out by next() */
  private read = 0;
  private waiters: (() => void)[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()));
      for (const w of this.waiters.splice(0)) w();
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
        for (const w of this.waiters.splice(0)) w();
      });
    });
  }

  static open(baseUrl: string, opts: { protocols?: string[]; path?: string; autoPong?: boolean; headers?: Record<string, string> } = {}): Promise<TestSocket> {
    const url = baseUrl.replace(/^http/, 'ws') + (opts.path ?? '/realtime');
    const ws = new WebSocket(url, opts.protocols ?? [], { autoPong: opts.autoPong ?? true, headers: opts.headers });
    const s = new TestSocket(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(s));
      ws.once('error', reject);
    });
  }

  send(msg: unknown): void {
    this.ws.send(JSON.stringify(msg));
  }

  /** The next unread message that is not a heartbeat. */
  async next(): Promise<any> {
    for (;;) {
      while (this.read < this.messages.length) {
        const m = this.messages[this.read++];
        if (m.type !== 'heartbeat') return m;
      }
      if (this.ws.readyState === WebSocket.CLOSED) throw new Error('socket closed while waiting for a message');
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  /** Unread messages up to and including the first of `type`, heartbeats left out. */
  async until(type: string): Promise<any[]> {
    const out: any[] = [];
    for (;;) {
      const m = await this.next();
      out.push(m);
      if (m.type === type) return out;
    }
  }

  async auth(key: string): Promise<any> {
    this.send({ type: 'auth', key });
    return this.next();
  }

  async subscribe(topics: string[], since?: number): Promise<any[]> {
    this.send({ type: 'subscribe', topics, ...(since === undefined ? {} : { since }) });
    const got = await this.next();
    if (got.type === 'error') return [got];
    return got.type === 'subscribed' ? [got] : [got, ...(await this.until('subscribed'))];
  }

  close(): Promise<{ code: number; reason: string }> {
    this.ws.close();
    return this.closed;
  }
}

/**
 * A screen that subscribes and then never reads again, at the TCP level (a `ws` client would
 * resume its own socket). Authenticates by subprotocol, then sends one masked text frame.
 */
export async function stuckSubscriber(baseUrl: string, key: string, topics: string[]): Promise<net.Socket> {
  const { hostname, port } = new URL(baseUrl);
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write(
    [
      'GET /realtime HTTP/1.1',
      `Host: ${hostname}:${port}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      'Sec-WebSocket-Version: 13',
      `Sec-WebSocket-Protocol: comanda.v1, ${key}`,
      '',
      '',
    ].join('\r\n'),
  );
  let seen = '';
  await new Promise<void>((resolve) => {
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('latin1');
      // the handshake answer, then the frames 'authenticated' and (after our frame) 'subscribed'
      if (seen.includes('101 Switching Protocols') && seen.includes('"authenticated"') && !seen.includes('"subscribe"')) {
        seen += '"subscribe"';
        socket.write(maskedTextFrame(JSON.stringify({ type: 'subscribe', topics })));
      }
      if (seen.includes('"subscribed"')) {
        socket.off('data', onData);
        socket.pause();
        resolve();
      }
    };
    socket.on('data', onData);
  });
  return socket;
}

function maskedTextFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  if (payload.length > 125) throw new Error('keep test frames short');
  const mask = randomBytes(4);
  const masked = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]));
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, masked]);
}
