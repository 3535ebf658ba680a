import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEASE_SECONDS } from '../../server/domain/guest/dispatcher.ts';
import { enqueueMessage } from '../../server/domain/guest/outbox.ts';
import { httpSmsSender, type SmsSender } from '../../server/domain/guest/transports.ts';
import { guestOf } from '../../server/http/guest-services.ts';
import type { ComandaServer } from '../../server/server.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, startSecondServer, type TestHub } from '../helpers/server.ts';
import { startSmsGateway } from './helpers.ts';

/** The gateway, reached a little slowly, so both processes' runs overlap; the token names the process. */
const slowGateway = (url: string, token: string): SmsSender => {
  const real = httpSmsSender({ url, token })!;
  return { send: async (to, text) => (await sleep(20), real.send(to, text)) };
};

describe.each(DIALECTS)('the guest outbox shared by two processes of one database on %s', (dialect) => {
  let hub: TestHub;
  let other: ComandaServer;
  let sms: Awaited<ReturnType<typeof startSmsGateway>>;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-outbox-'));
  let seq = 0;

  const queue = async () => {
    const to = `+4930555${1000 + seq++}`;
    const m = await hub.server.services.tx.run((trx) =>
      enqueueMessage(trx, hub.clock.now(), { restaurantId: hub.restaurant.id, kind: 'contact', channel: 'sms', status: 'pending', recipient: to, body: 'your table is ready' }),
    );
    return { id: m.id, to };
  };
  const row = (id: string) => hub.server.services.db.selectFrom('guest_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const sentTo = (to: string) => sms.received.filter((r) => r.to === to);
  // the 15 s job fires in the same second on every process
  const tickBoth = () => Promise.all([hub.server.scheduler.runNow('guest-messages'), other.scheduler.runNow('guest-messages')]);

  beforeAll(async () => {
    sms = await startSmsGateway();
    hub = await startHub(dialect, { dataDir: dir });
    ({ server: other } = await startSecondServer(hub, dir));
    guestOf(hub.server.services).dispatcher.sms = slowGateway(sms.url, 'one');
    guestOf(other.services).dispatcher.sms = slowGateway(sms.url, 'two');
  });
  afterAll(async () => {
    await other?.close();
    await hub?.close();
    await sms?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a notice due on both processes at once is sent exactly once', async () => {
    const { id, to } = await queue();
    await tickBoth();
    expect(sentTo(to)).toHaveLength(1);
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 1, last_error: null, lease_until: null, lease_owner: null });
    await tickBoth();
    expect(sentTo(to)).toHaveLength(1);
  });

  it('a backlog is split between the processes, every notice once', async () => {
    const queued = [];
    for (let i = 0; i < 20; i++) queued.push(await queue());
    await tickBoth();
    for (const q of queued) expect(sentTo(q.to), q.to).toHaveLength(1);
    const senders = new Set(queued.map((q) => sentTo(q.to)[0].auth));
    expect(senders).toEqual(new Set(['Bearer one', 'Bearer two']));
    const rows = await hub.server.services.db.selectFrom('guest_messages').select('status').where('id', 'in', queued.map((q) => q.id)).execute();
    expect(rows.every((r) => r.status === 'sent')).toBe(true);
  });

  it('a notice claimed by a process that died is sent by the other once the lease ran out', async () => {
    // The first process claims the notice and hangs in the send, as if it had died.
    let entered!: () => void;
    const inSend = new Promise<void>((r) => (entered = r));
    let fail!: (e: Error) => void;
    const hung = new Promise<void>((_, reject) => (fail = reject));
    const dispatcher = guestOf(hub.server.services).dispatcher;
    dispatcher.sms = { send: () => (entered(), hung) };
    const { id, to } = await queue();
    const dying = hub.server.scheduler.runNow('guest-messages');
    await inSend;
    expect(await row(id)).toMatchObject({ status: 'pending', lease_owner: dispatcher.owner });

    // While the lease holds, the other process leaves the notice alone.
    hub.clock.advance((LEASE_SECONDS - 1) * 1000);
    await other.scheduler.runNow('guest-messages');
    expect(sentTo(to)).toHaveLength(0);

    hub.clock.advance(1000);
    await other.scheduler.runNow('guest-messages');
    expect(sentTo(to)).toEqual([expect.objectContaining({ auth: 'Bearer two' })]);
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 1, last_error: null, lease_owner: null });

    // The first process wakes up to a failed send: its outcome no longer counts.
    fail(new Error('connection reset'));
    await dying;
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    dispatcher.sms = slowGateway(sms.url, 'one');
  });
});
