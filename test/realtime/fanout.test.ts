import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { actorFor, placeOrder } from './fixtures.ts';
import { TestSocket } from './socket.ts';

/** The other server process, driven over stdin/stdout. */
class OtherProcess {
  private pending = new Map<number, (msg: any) => void>();
  private nextId = 1;
  url = '';
  private constructor(readonly child: ChildProcess) {}

  static async start(database: string, pollMs: number): Promise<OtherProcess> {
    const script = path.join(import.meta.dirname, 'child-server.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', script, database, String(pollMs)], { stdio: ['pipe', 'pipe', 'inherit'] });
    const other = new OtherProcess(child);
    const ready = new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`second server exited with ${code}`)));
      readline.createInterface({ input: child.stdout! }).on('line', (line) => {
        const msg = JSON.parse(line);
        if (msg.ready) {
          other.url = msg.ready;
          resolve();
        } else other.pending.get(msg.id)?.(msg);
      });
    });
    await ready;
    return other;
  }

  call(cmd: Record<string, unknown>): Promise<any> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.child.stdin!.write(`${JSON.stringify({ ...cmd, id })}\n`);
    });
  }

  async stop(): Promise<void> {
    const exited = new Promise((r) => this.child.once('exit', r));
    await this.call({ op: 'close' });
    await exited;
  }
}

/**
 * Two server processes on one database. On PostgreSQL (the cloud) the safety poll is off in
 * both, so only LISTEN/NOTIFY can carry a change across. The SQLite hub runs one server, but
 * a second process on its file (the CLI, a restored service) is picked up by the poll.
 */
describe.each(DIALECTS)('realtime fan-out across two server processes on %s', (dialect) => {
  let hub: TestHub;
  let other: OtherProcess;
  let dataDir: string | undefined;
  const sockets: TestSocket[] = [];
  const actor = () => actorFor(hub.server.services, hub.restaurant.id);
  const screen = async (url: string) => {
    const s = await TestSocket.open(url);
    sockets.push(s);
    await s.auth(hub.keys.widget);
    return s;
  };

  beforeAll(async () => {
    const pollMs = dialect === 'postgres' ? 3_600_000 : 50;
    dataDir = dialect === 'sqlite' ? fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-rt-')) : undefined;
    hub = await startHub(dialect, { dataDir, config: { realtime: { pollMs } } });
    other = await OtherProcess.start(dataDir ? `dir:${dataDir}` : hub.server.services.databaseUrl!, pollMs);
  });
  afterAll(async () => {
    for (const s of sockets) s.ws.terminate();
    await other?.stop();
    await hub?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a change committed in one process reaches screens connected to the other, both ways', async () => {
    const onOther = await screen(other.url);
    await onOther.subscribe(['orders']);
    const onHere = await screen(hub.url);
    await onHere.subscribe(['orders']);

    const { order } = await placeOrder(hub.server.services, actor(), { lines: [{ station: 'kitchen' }] });
    expect(await onOther.next()).toMatchObject({ type: 'order', data: { id: order.id } });
    expect(await onHere.next()).toMatchObject({ type: 'order', data: { id: order.id } });

    const { orderId } = await other.call({ op: 'placeOrder', restaurantId: hub.restaurant.id, lines: [{ station: 'bar' }] });
    const a = await onHere.next();
    const b = await onOther.next();
    expect(a).toMatchObject({ type: 'order', data: { id: orderId } });
    expect(b.seq).toBe(a.seq);
  });

  it('a screen that moves to the other process resumes there with exactly what it missed', async () => {
    const first = await screen(hub.url);
    await first.subscribe(['orders']);
    const { order } = await placeOrder(hub.server.services, actor(), { lines: [{ station: 'kitchen' }, { station: 'bar' }] });
    const seen = await first.next();
    expect(seen.data.id).toBe(order.id);
    await first.close();

    for (const [idx, status] of [[0, 'preparing'], [1, 'preparing'], [0, 'ready']] as const) {
      await other.call({ op: 'setItemStatus', restaurantId: hub.restaurant.id, orderId: order.id, idx, status });
    }
    const moved = await screen(other.url);
    const replay = await moved.subscribe(['orders'], seen.seq);
    const orders = replay.filter((m) => m.type === 'order');
    expect(orders).toHaveLength(3);
    expect(orders.every((m) => m.data.id === order.id && m.seq > seen.seq)).toBe(true);
    expect(replay.at(-1)).toMatchObject({ type: 'subscribed', data: { replayed: 3 } });
    expect(orders.at(-1).data.items.map((i: any) => i.status)).toEqual(['ready', 'preparing']);
  });

  it('a process whose LISTEN connection drops catches up once it is back', async () => {
    const onOther = await screen(other.url);
    await onOther.subscribe(['orders']);
    if (dialect === 'postgres') {
      // cut every LISTEN connection to this database: the notification of the next commit is lost
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'LISTEN %'`.execute(
        hub.server.services.db,
      );
    }
    const { order } = await placeOrder(hub.server.services, actor(), { lines: [{ station: 'bar' }] });
    expect(await onOther.next()).toMatchObject({ type: 'order', data: { id: order.id } });
  });
});
