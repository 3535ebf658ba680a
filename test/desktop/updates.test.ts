import { describe, expect, it } from 'vitest';
import { UpdatePolicy } from '../../app/desktop/update-policy.ts';
import { isQuietTime, type ServiceHours } from '../../app/desktop/update-timing.ts';
import { FakeUpdater } from './fake-electron.ts';

// Rome is UTC+1 in November.
const rome = (hhmm: string, date = '2026-11-24') => Date.parse(`${date}T${hhmm}:00+01:00`);
const trattoria: ServiceHours = {
  timezone: 'Europe/Rome',
  // Tuesday lunch and dinner; Friday into the night; Monday closed
  opening_hours: {
    tuesday: [
      { open: '12:00', close: '15:00' },
      { open: '19:00', close: '23:00' },
    ],
    wednesday: [{ open: '12:00', close: '23:00' }],
    friday: [{ open: '18:00', close: '02:00' }],
  },
  closed_dates: ['2026-11-25'],
};

describe('update timing', () => {
  it('never during service, nor an hour either side of it', () => {
    expect(isQuietTime(rome('13:00'), trattoria)).toBe(false);
    expect(isQuietTime(rome('11:30'), trattoria)).toBe(false); // setting up
    expect(isQuietTime(rome('15:59'), trattoria)).toBe(false); // cashing up
    expect(isQuietTime(rome('16:00'), trattoria)).toBe(true); // between services
    expect(isQuietTime(rome('17:59'), trattoria)).toBe(true);
    expect(isQuietTime(rome('18:00'), trattoria)).toBe(false);
    expect(isQuietTime(rome('23:30'), trattoria)).toBe(false);
    expect(isQuietTime(rome('00:30', '2026-11-25'), trattoria)).toBe(true);
    // a closed date (here a Wednesday) is quiet all day
    expect(isQuietTime(rome('13:00', '2026-11-25'), trattoria)).toBe(true);
  });

  it('a night that runs past midnight is service until it ends', () => {
    // Friday 18:00–02:00: Saturday 01:30 is still service, 03:30 is not
    expect(isQuietTime(rome('01:30', '2026-11-28'), trattoria)).toBe(false);
    expect(isQuietTime(rome('02:59', '2026-11-28'), trattoria)).toBe(false);
    expect(isQuietTime(rome('03:00', '2026-11-28'), trattoria)).toBe(true);
  });

  it('the venue\'s timezone decides, not the machine\'s', () => {
    // 13:00 in Rome is 12:00 UTC: service; 13:00 UTC is 14:00 Rome: still service; 15:30 UTC = 16:30 Rome: quiet
    expect(isQuietTime(Date.parse('2026-11-24T12:00:00Z'), trattoria)).toBe(false);
    expect(isQuietTime(Date.parse('2026-11-24T15:30:00Z'), trattoria)).toBe(true);
  });

  it('unknown hours: never; no hours set: only 03:00–05:00', () => {
    expect(isQuietTime(rome('04:00'), null)).toBe(false);
    const none = { timezone: 'Europe/Rome', opening_hours: {}, closed_dates: [] };
    expect(isQuietTime(rome('04:00'), none)).toBe(true);
    expect(isQuietTime(rome('12:00'), none)).toBe(false);
    expect(isQuietTime(rome('04:00'), { ...none, timezone: 'Not/AZone' })).toBe(false);
  });

  it('checks only when online and at most every 6 hours; installs a downloaded update only at a quiet time', async () => {
    const updater = new FakeUpdater();
    let now = rome('12:30');
    let online = false;
    let installs = 0;
    const policy = new UpdatePolicy({
      updater,
      feedUrl: 'https://updates.example.test/comanda',
      isOnline: () => online,
      hours: () => trattoria,
      now: () => now,
      install: async () => {
        installs++;
      },
      log: () => {},
    });
    expect(updater).toMatchObject({ autoDownload: true, autoInstallOnAppQuit: false, feed: { provider: 'generic', url: 'https://updates.example.test/comanda' } });

    expect(await policy.tick()).toBe('nothing'); // offline
    expect(updater.checks).toBe(0);
    online = true;
    expect(await policy.tick()).toBe('check');
    expect(updater.checks).toBe(1);
    now += 5 * 3600_000;
    expect(await policy.tick()).toBe('nothing');
    now = rome('19:30');
    expect(await policy.tick()).toBe('check');
    expect(updater.checks).toBe(2);

    // downloaded in the middle of dinner service: it waits
    updater.emit('update-downloaded', { version: '0.2.0' });
    expect(await policy.tick()).toBe('nothing');
    now = rome('23:30');
    expect(await policy.tick()).toBe('nothing');
    expect(installs).toBe(0);
    now = rome('00:05', '2026-11-25');
    expect(await policy.tick()).toBe('install');
    expect(installs).toBe(1);
    expect(await policy.tick()).toBe('nothing');
    expect(updater.checks).toBe(2);
  });

  it('a wall clock stepped back a day does not hold the next check off for the day: the interval is measured on the monotonic clock', async () => {
    const updater = new FakeUpdater();
    let now = rome('12:30');
    let mono = 0;
    const policy = new UpdatePolicy({ updater, feedUrl: null, isOnline: () => true, hours: () => trattoria, now: () => now, monotonic: () => mono, install: async () => {}, log: () => {} });
    expect(await policy.tick()).toBe('check');
    now -= 86_400_000;
    mono += 6 * 3600_000;
    expect(await policy.tick()).toBe('check');
    // and a step forward does not bring the next one nearer
    now += 30 * 86_400_000;
    mono += 60_000;
    expect(await policy.tick()).toBe('nothing');
    expect(updater.checks).toBe(2);
  });

  it('a failed check is logged, and tried again at the next interval', async () => {
    const updater = new FakeUpdater();
    updater.checkForUpdates = async () => {
      throw new Error('getaddrinfo ENOTFOUND');
    };
    const logged: string[] = [];
    const policy = new UpdatePolicy({ updater, feedUrl: null, isOnline: () => true, hours: () => trattoria, now: () => 0, install: async () => {}, log: (m) => logged.push(m) });
    expect(updater.feed).toBeNull(); // the feed built into the app applies
    expect(await policy.tick()).toBe('check');
    expect(logged).toEqual(['update check failed']);
  });
});
