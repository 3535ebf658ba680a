import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { join, openWaitlist } from '../guest/helpers.ts';
import { TestSocket } from './socket.ts';

describe.each(DIALECTS)('realtime waitlist on %s', (dialect) => {
  let hub: TestHub;
  const sockets: TestSocket[] = [];
  const open = async () => {
    const s = await TestSocket.open(hub.url);
    sockets.push(s);
    return s;
  };

  beforeAll(async () => {
    hub = await startHub(dialect);
    await openWaitlist(hub);
  });
  afterAll(async () => {
    for (const s of sockets) s.ws.terminate();
    await hub?.close();
  });

  it('a waitlist token follows its own entry, presented as the API shows it, and no other', async () => {
    const mine = await join(hub, { guestName: 'Ada' });
    const theirs = await join(hub, { guestName: 'Bo' });
    expect(mine.status).toBe(201);
    const token: string = mine.body.token;
    const myId = token.slice(0, token.lastIndexOf('.'));
    const theirId = (theirs.body.token as string).slice(0, (theirs.body.token as string).lastIndexOf('.'));

    const guest = await open();
    guest.send({ type: 'auth', kind: 'waitlist', token });
    expect((await guest.next()).type).toBe('authenticated');
    expect((await guest.subscribe([`waitlist_entry:${theirId}`]))[0]).toMatchObject({ type: 'error' });
    expect((await guest.subscribe(['waitlist']))[0]).toMatchObject({ type: 'error' });
    expect((await guest.subscribe([`waitlist_entry:${myId}`]))[0].type).toBe('subscribed');

    expect((await hub.api.post(`/v1/waitlist/${theirId}/notify`, {})).status).toBe(200);
    expect((await hub.api.post(`/v1/waitlist/${myId}/notify`, {})).status).toBe(200);
    const msg = await guest.next();
    expect(msg).toMatchObject({ type: 'waitlist_entry', topic: `waitlist_entry:${myId}`, data: { id: myId, object: 'waitlist_entry', status: 'notified' } });

    const forged = await open();
    forged.send({ type: 'auth', kind: 'waitlist', token: `${myId}.${'A'.repeat(43)}` });
    expect(await forged.next()).toMatchObject({ type: 'error' });
    expect((await forged.closed).code).toBe(4401);
  });
});
