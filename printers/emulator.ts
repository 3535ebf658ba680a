import net from 'node:net';
import { PAPER_END_BITS, PAPER_END_STOP_BIT, PRINTER_OFFLINE_BIT, STATUS_OK } from './status.ts';

/**
 * online: answers status queries "all clear" and prints what it receives.
 * paper_out: answers "offline, paper end" and prints nothing.
 * offline: drops every connection as soon as it is made (a powered-off or unplugged printer).
 */
export type EmulatorMode = 'online' | 'paper_out' | 'offline';

export interface ReceivedConnection {
  /** every byte received, status queries included */
  raw: Buffer;
  /** the bytes that are not real-time status queries: the document, if any */
  document: Buffer;
  /** status query numbers (n of DLE EOT n) in the order received */
  statusQueries: number[];
  /** the mode when the connection was accepted; only online connections print */
  mode: EmulatorMode;
  /** wall-clock ms when the connection closed; null while open */
  closedAt: number | null;
}

/**
 * A raw TCP (port 9100 style) ESC/POS printer for tests and demos: stores what each
 * connection sent and answers DLE EOT real-time status queries like a real printer would.
 */
export class PrinterEmulator {
  readonly connections: ReceivedConnection[] = [];
  private server: net.Server;
  private sockets = new Set<net.Socket>();
  private waiters: { count: number; resolve: () => void }[] = [];

  private constructor(
    public mode: EmulatorMode,
    readonly host: string,
    public port: number,
  ) {
    this.server = net.createServer((socket) => this.accept(socket));
  }

  static async start(opts: { host?: string; port?: number; mode?: EmulatorMode } = {}): Promise<PrinterEmulator> {
    const emu = new PrinterEmulator(opts.mode ?? 'online', opts.host ?? '127.0.0.1', opts.port ?? 0);
    await emu.listen();
    return emu;
  }

  private listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.port, this.host, () => {
        this.server.off('error', reject);
        this.port = (this.server.address() as net.AddressInfo).port;
        resolve();
      });
    });
  }

  setMode(mode: EmulatorMode): void {
    this.mode = mode;
  }

  /** Documents printed: one per online connection that carried more than status queries. */
  prints(): Buffer[] {
    return this.connections.filter((c) => c.mode === 'online' && c.document.length > 0).map((c) => c.document);
  }

  /** The printed documents as text (latin1: one char per byte), for searching. */
  texts(): string[] {
    return this.prints().map((b) => b.toString('latin1'));
  }

  private accept(socket: net.Socket): void {
    if (this.mode === 'offline') {
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    // answer each status byte at once, as a printer does (no Nagle wait between them)
    socket.setNoDelay(true);
    const conn: ReceivedConnection = { raw: Buffer.alloc(0), document: Buffer.alloc(0), statusQueries: [], mode: this.mode, closedAt: null };
    this.connections.push(conn);
    const doc: number[] = [];
    // 0: plain bytes, 1: after DLE, 2: after DLE EOT (next byte is n)
    let state = 0;
    socket.on('data', (chunk: Buffer) => {
      conn.raw = Buffer.concat([conn.raw, chunk]);
      for (const b of chunk) {
        if (state === 2) {
          conn.statusQueries.push(b);
          socket.write(Buffer.from([this.answer(b)]));
          state = 0;
        } else if (state === 1) {
          if (b === 0x04) state = 2;
          else {
            doc.push(0x10, b);
            state = 0;
          }
        } else if (b === 0x10) state = 1;
        else doc.push(b);
      }
      conn.document = Buffer.from(doc);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      this.sockets.delete(socket);
      conn.closedAt = Date.now();
      const printed = this.closedPrints();
      this.waiters = this.waiters.filter((w) => (w.count <= printed ? (w.resolve(), false) : true));
    });
  }

  private closedPrints(): number {
    return this.connections.filter((c) => c.mode === 'online' && c.document.length > 0 && c.closedAt !== null).length;
  }

  /** Resolves once `count` documents have been printed, their connections closed. */
  waitForPrints(count: number): Promise<void> {
    if (this.closedPrints() >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  private answer(n: number): number {
    if (this.mode !== 'paper_out') return STATUS_OK;
    if (n === 1) return STATUS_OK | PRINTER_OFFLINE_BIT;
    if (n === 2) return STATUS_OK | PAPER_END_STOP_BIT;
    if (n === 4) return STATUS_OK | PAPER_END_BITS;
    return STATUS_OK;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
