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

  static open(baseUrl: string, opts: { protocols?: string[]; path?: string; autoPong?: boolean } = {}): Promise<TestSocket> {
    const url = baseUrl.replace(/^http/, 'ws') + (opts.path ?? '/realtime');
    const ws = new WebSocket(url, opts.protocols ?? [], { autoPong: opts.autoPong ?? true });
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
