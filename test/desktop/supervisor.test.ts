import { describe, expect, it } from 'vitest';
import { restartDelay } from '../../app/desktop/backoff.ts';
import { ServerSupervisor, type CrashRecord } from '../../app/desktop/supervisor.ts';
import { FakeChild, ManualTimers } from './fake-electron.ts';
import { until } from '../helpers/until.ts';

function setup(behaviour?: { exitOnShutdown?: boolean }) {
  const timers = new ManualTimers();
  const children: FakeChild[] = [];
  const crashes: CrashRecord[] = [];
  const supervisor = new ServerSupervisor({
    timers,
    stopTimeoutMs: 15_000,
    spawn: () => {
      const c = new FakeChild(behaviour);
      children.push(c);
      return c;
    },
    onCrash: (r) => crashes.push(r),
  });
  return { timers, children, crashes, supervisor };
}

describe('server supervision (fake process)', () => {
  it('restart delays double from 250 ms to a 30 s ceiling', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => restartDelay(n))).toEqual([250, 500, 1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });

  it('a server that keeps crashing is restarted with growing delays; a healthy run resets them', async () => {
    const { timers, children, crashes, supervisor } = setup();
    const ready = supervisor.start();
    children[0].ready();
    expect((await ready).port).toBe(8080);
    expect(supervisor.state).toBe('running');

    for (let i = 0; i < 4; i++) {
      children.at(-1)!.crash(i + 1);
      expect(supervisor.state).toBe('waiting_to_restart');
      // nothing restarts before its delay has passed
      timers.advance(timers.delays()[0] - 1);
      expect(children).toHaveLength(i + 1);
      timers.advance(1);
      expect(children).toHaveLength(i + 2);
    }
    // the first ran (a crash: 250 ms); the others never got ready (failed starts): from 1 s
    expect(crashes.map((c) => c.restartInMs)).toEqual([250, 1000, 2000, 4000]);
    expect(crashes.map((c) => c.failedStart)).toEqual([false, true, true, true]);
    expect(crashes.map((c) => c.code)).toEqual([1, 2, 3, 4]);
    expect(supervisor.restarts).toBe(4);

    // this one stays up for a minute: its crash starts the delays over
    children.at(-1)!.ready();
    await until('the supervisor says running', () => supervisor.state === 'running', { every: 0 });
    timers.advance(60_000);
    children.at(-1)!.crash();
    expect(crashes.at(-1)!.restartInMs).toBe(250);
    expect(crashes.at(-1)!.ranForMs).toBe(60_000);
  });

  it('a wall clock stepped while the hub crash-loops neither resets the backoff (forward) nor makes a healthy run look short (back)', async () => {
    const { timers, children, crashes, supervisor } = setup();
    const ready = supervisor.start();
    children[0].ready();
    await ready;
    children[0].crash();
    timers.advance(250);
    // a year forward between a start and its crash: measured on the wall clock, that run "lasted a year", and the delays started over at 250 ms
    timers.stepWall(365 * 86_400_000);
    children[1].crash();
    // the second never got ready: a failed start's delay (1 s)
    expect(crashes.map((c) => c.restartInMs)).toEqual([250, 1000]);
    expect(crashes[1].ranForMs).toBe(0);
    expect(crashes[1].at.startsWith('2027-')).toBe(true); // a crash's time is still the wall clock's
    timers.advance(1000);
    // a healthy minute with the clock set back ten minutes during it: still a healthy run, the delays start over
    children[2].ready();
    await until('the supervisor says running', () => supervisor.state === 'running', { every: 0 });
    timers.stepWall(-10 * 60_000);
    timers.advance(60_000);
    children[2].crash();
    expect(crashes.at(-1)).toMatchObject({ ranForMs: 60_000, restartInMs: 250 });
    // and the restart waits its delay, not the step
    timers.advance(250);
    expect(children).toHaveLength(4);
  });

  it('a process that cannot start at all is retried after a failed start\'s longer delay', () => {
    const { timers, children, crashes, supervisor } = setup();
    void supervisor.start().catch(() => {});
    children[0].emit('error', new Error('spawn node ENOENT'));
    expect(crashes[0].lastOutput).toEqual(['could not start: spawn node ENOENT']);
    timers.advance(999);
    expect(children).toHaveLength(1);
    timers.advance(1);
    expect(children).toHaveLength(2);
  });

  it('stop asks the server to finish (IPC), and kills it only when it does not end in time', async () => {
    const polite = setup();
    void polite.supervisor.start();
    polite.children[0].ready();
    await polite.supervisor.stop();
    expect(polite.children[0].sent).toEqual([{ type: 'shutdown' }]);
    expect(polite.children[0].signals).toEqual([]);
    expect(polite.supervisor.state).toBe('stopped');
    // a stopped server is not restarted
    expect(polite.timers.delays()).toEqual([]);

    const stuck = setup({ exitOnShutdown: false });
    void stuck.supervisor.start();
    stuck.children[0].ready();
    const stopping = stuck.supervisor.stop();
    expect(stuck.supervisor.state).toBe('stopping');
    stuck.timers.advance(14_999);
    expect(stuck.children[0].signals).toEqual([]);
    stuck.timers.advance(1);
    expect(stuck.children[0].signals).toEqual(['SIGKILL']);
    await stopping;
    expect(stuck.supervisor.state).toBe('stopped');
    expect(stuck.crashes).toEqual([]);

    // stopping while it waits to restart cancels the restart
    const crashing = setup();
    const never = crashing.supervisor.start();
    crashing.children[0].crash();
    await crashing.supervisor.stop();
    await expect(never).rejects.toThrow('the server was stopped');
    crashing.timers.advance(60_000);
    expect(crashing.children).toHaveLength(1);
  });
});
