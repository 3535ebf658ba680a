import net from 'node:net';

interface Pipe {
  client: net.Socket;
  upstream: net.Socket;
  /** silenced by blackhole(): open, but nothing passes either way, ever again */
  dead?: boolean;
  /** the path of the last HTTP request the client sent on this connection */
  lastPath: string | null;
}

interface Drop {
  bytes: number;
  path: string | undefined;
  passed: number;
  pipe: Pipe | null;
  done: () => void;
}

/**
 * A loopback TCP proxy between two processes (a hub and its cloud) that a test controls:
 * `cut()` is the internet going down (every connection destroyed, new ones refused),
 * `restore()` brings it back, `dropMidResponse()` breaks one connection part way through
 * an answer, `blackhole()` is a silent line (a NAT that dropped its state, a cable pulled
 * upstream): sockets stay open and new ones are accepted, but no byte passes. It sees bytes,
 * not HTTP, except for reading request paths to aim a drop.
 */
export class TcpProxy {
  private server: net.Server;
  private pipes = new Set<Pipe>();
  private down = false;
  private silent = false;
  /** connections accepted while silent: held open, never answered */
  private holes = new Set<net.Socket>();
  private drops: Drop[] = [];
  /** connections refused while cut */
  refused = 0;
  /** connections broken by dropMidResponse */
  dropped = 0;
  port = 0;

  /** HTTP requests that went through, by path */
  readonly requests = new Map<string, number>();
  /** connections made to each upstream, in the order given */
  readonly perUpstream: number[];
  private next = 0;

  private constructor(private readonly upstreamPorts: number[]) {
    this.server = net.createServer((client) => this.accept(client));
    this.perUpstream = upstreamPorts.map(() => 0);
  }

  /** A proxy to one port, or round-robin over several (a load balancer in front of processes). */
  static async start(upstream: number | number[]): Promise<TcpProxy> {
    const p = new TcpProxy(Array.isArray(upstream) ? upstream : [upstream]);
    await new Promise<void>((resolve, reject) => {
      p.server.once('error', reject);
      p.server.listen(0, '127.0.0.1', () => resolve());
    });
    p.port = (p.server.address() as net.AddressInfo).port;
    return p;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  private accept(client: net.Socket): void {
    if (this.down) {
      this.refused++;
      client.resetAndDestroy();
      return;
    }
    if (this.silent) {
      this.holes.add(client);
      client.on('error', () => {}).on('close', () => this.holes.delete(client));
      client.resume();
      return;
    }
    const i = this.next++ % this.upstreamPorts.length;
    this.perUpstream[i]++;
    const upstream = net.connect(this.upstreamPorts[i], '127.0.0.1');
    const pipe: Pipe = { client, upstream, lastPath: null };
    this.pipes.add(pipe);
    const end = () => {
      this.pipes.delete(pipe);
      // a drop bound to this connection that closed before its bytes passed breaks the next
      // one instead (bound to a closed one, it never fired: a small pull answer on a
      // connection then closed left a test waiting for its cut until it timed out)
      this.release(pipe);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.on('data', (chunk: Buffer) => {
      if (pipe.dead) return;
      const m = /^[A-Z]+ (\S+) HTTP\/1\.[01]\r\n/.exec(chunk.subarray(0, 512).toString('latin1'));
      if (m) {
        pipe.lastPath = m[1];
        this.requests.set(m[1], (this.requests.get(m[1]) ?? 0) + 1);
        // a new request on a kept-alive connection: the answer a drop was counting has ended
        // short of its bytes, and the next answer here may be to another path (bound still,
        // a pull's cut fired on the push that came next on its connection, and the push's own
        // cut then waited for a push answer that never came)
        this.release(pipe);
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => this.fromUpstream(pipe, chunk));
  }

  /** Drops counting an answer on this connection wait for the next answer to their path. */
  private release(pipe: Pipe): void {
    for (const d of this.drops) if (d.pipe === pipe) Object.assign(d, { pipe: null, passed: 0 });
  }

  private fromUpstream(pipe: Pipe, chunk: Buffer): void {
    if (pipe.dead) return;
    const d =
      this.drops.find((x) => x.pipe === pipe) ??
      this.drops.find((x) => x.pipe === null && (x.path === undefined || pipe.lastPath?.startsWith(x.path)));
    if (!d) {
      pipe.client.write(chunk);
      return;
    }
    d.pipe = pipe;
    const room = d.bytes - d.passed;
    if (chunk.length < room) {
      d.passed += chunk.length;
      pipe.client.write(chunk);
      return;
    }
    // the first `bytes` reach the client, then the connection dies in both directions
    this.drops = this.drops.filter((x) => x !== d);
    this.dropped++;
    pipe.client.write(chunk.subarray(0, room), () => {
      pipe.client.resetAndDestroy();
      pipe.upstream.destroy();
    });
    d.done();
  }

  /** The line goes down: every connection is destroyed and new ones are refused. */
  cut(): void {
    this.down = true;
    for (const p of this.pipes) {
      p.client.resetAndDestroy();
      p.upstream.destroy();
    }
    this.pipes.clear();
  }

  /**
   * The line goes silent: every open connection stops carrying bytes both ways (and stays so
   * after restore(), as a connection whose NAT mapping was dropped), new connections are
   * accepted and never answered. Nothing is closed or refused.
   */
  blackhole(): void {
    this.silent = true;
    for (const p of this.pipes) p.dead = true;
  }

  restore(): void {
    this.down = false;
    this.silent = false;
  }

  /**
   * Lets the first `bytes` of an answer through (of a request to a path starting with `path`,
   * when given), then destroys that connection. An answer shorter than that passes whole and
   * the drop waits for the next one to its path. Resolves once it has broken one. Several may
   * be armed at once; each breaks one connection.
   */
  dropMidResponse(bytes: number, opts: { path?: string } = {}): Promise<void> {
    return new Promise((resolve) => {
      this.drops.push({ bytes, path: opts.path, passed: 0, pipe: null, done: resolve });
    });
  }

  get connections(): number {
    return this.pipes.size;
  }

  /** What a test that gave up waiting on a drop reports: the drops still armed, and the requests that went through. */
  describe(): string {
    const armed = this.drops.map((d) => `${d.path ?? 'any'} after ${d.bytes} bytes: ${d.pipe ? `bound to an open connection (last ${d.pipe.lastPath}), ${d.passed} passed` : 'waiting for an answer'}`);
    return `armed drops [${armed.join('; ')}], ${this.dropped} dropped, ${this.pipes.size} connections open, requests ${JSON.stringify(Object.fromEntries(this.requests))}`;
  }

  async close(): Promise<void> {
    this.cut();
    for (const s of this.holes) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
