import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrinterEmulator } from '../../printers/emulator.ts';
import { ManualClock } from '../../server/clock.ts';
import { newId, PREFIXES } from '../../server/ids.ts';
import { applyChanges } from '../../sync/apply.ts';
import { toWire } from '../../sync/changes.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { EVERY_DAY_NOON_TO_ELEVEN } from '../reservations/helpers.ts';
import { checkPage, launch, OWNER, setUpVenue, IN_BROWSER } from './browser.ts';

const HOUR = 3600_000;

/**
 * The operations side of the back office in Chromium against a real SQLite hub with a data
 * dir (so it makes backups), through the UI only: sync and backup health on Today, Back up
 * now, the nightly backup's settings, printers added / tested on an emulated printer / edited
 * / removed, mail and SMS credentials that never come back in full, a sync conflict (a
 * booking the cloud made for a table the hub had already given away, applied through the
 * sync apply path) shown in words with a link, and a server's Today without a failed request.
 */
describe('back office operations in the browser', IN_BROWSER, () => {
  let hub: TestHub;
  let dataDir: string;
  let emu: PrinterEmulator;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  // everyone here signs in with the owner's password
  const password = OWNER.password;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-office-'));
    // the hub first started 49 h ago and has made no backup since
    const clock = new ManualClock(Date.now() - 49 * HOUR);
    hub = await startHub('sqlite', { dataDir, clock, config: { dataDir, backups: { enabled: true, dir: 'backups', keepDays: 14, schedule: '0 30 4 * * *' } } });
    clock.set(Date.now());
    emu = await PrinterEmulator.start();
    await setUpVenue(hub.url, 'Osteria Test');
    const manager = await hub.api.post('/v1/staff', { name: 'Max Manager', email: 'max@example.com', role: 'manager' });
    expect((await hub.api.post(`/v1/staff/${manager.body.id}/password`, { password })).status).toBeLessThan(300);
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await emu?.close();
    await hub?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const signIn = async (p: Page, email: string) => {
    await p.goto(`${hub.url}/app/login`);
    await p.getByLabel('Email').fill(email);
    await p.getByLabel('Password').fill(password);
    await p.getByRole('button', { name: 'Sign in' }).click();
  };
  const go = async (where: string, heading: string) => {
    await page.goto(hub.url + where);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  };
  /** A switch turned on from the keyboard, as staff at a till would. */
  const switchOn = async (scope: Page | Locator, name: string) => {
    const sw = scope.getByRole('switch', { name });
    await sw.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => sw.isChecked()).toBe(true);
  };
  // functions passed to evaluate run in the page: its globals are reached through globalThis
  const focused = () =>
    page.evaluate(() => {
      const doc = (globalThis as any).document;
      const el = doc.activeElement;
      const ids: string[] = (el?.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
      return {
        tag: el?.tagName ?? '',
        name: el?.getAttribute('name') ?? '',
        label: el?.labels?.[0]?.textContent ?? '',
        description: ids.map((id) => doc.getElementById(id)?.textContent ?? '').join(' | '),
      };
    });
  const attention = () => page.locator('section', { has: page.getByRole('heading', { name: 'Needs attention' }) });
  const health = () => page.locator('section', { has: page.getByRole('heading', { name: 'Printers, sync and backups' }) });

  it("a manager's Today: the hub not linked (a quiet line), and a warning after 48 h without a backup", async () => {
    await signIn(page, 'max@example.com');
    await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
    await health().getByText('This hub is not linked to a cloud.').waitFor();
    // not linked is not a problem: nothing about sync under "needs attention"
    await attention().getByRole('link', { name: 'No backup has succeeded in the last 48 hours.' }).waitFor();
    expect(await attention().textContent()).not.toMatch(/cloud|sync/i);
    await health().getByRole('alert').filter({ hasText: 'No backup has succeeded in the last 48 hours.' }).waitFor();
    expect(await health().textContent()).toContain('Last backupNever');
    await checkPage(page, 'today-health');
  });

  it('Back up now makes a backup and the warning goes; the nightly settings show the API’s field error', async () => {
    await health().getByRole('link', { name: 'Backups' }).click();
    await page.getByRole('tab', { name: 'Backups', selected: true }).waitFor();
    const kept = page.locator('section', { has: page.getByRole('heading', { name: 'Backups kept' }) });
    await kept.getByText('No backup in the folder yet.').waitFor();
    await page.getByRole('button', { name: 'Back up now' }).click();
    const made = page.getByRole('status').filter({ hasText: /^Backup made: / });
    await made.waitFor();
    const file = /Backup made: (\S+) \(/.exec((await made.textContent())!)![1];
    expect(fs.existsSync(path.join(dataDir, 'backups', file))).toBe(true);
    await expect.poll(() => page.getByText('No backup has succeeded in the last 48 hours.').count()).toBe(0);
    await page.locator('dd', { hasText: file }).waitFor();
    // and it is listed among the backups kept, with its size
    const row = kept.getByRole('row').filter({ hasText: file });
    await row.waitFor();
    expect(await row.getByRole('cell').nth(1).textContent()).toMatch(/\d+(\.\d)? (KB|MB)/);

    // where backups go is the owner's decision: the manager reads it, with who may change it
    await page.getByText('Only the owner changes where and whether the hub makes its backups.').waitFor();
    expect(await page.getByLabel('Folder').count()).toBe(0);
    await context.clearCookies();
    await signIn(page, 'ada@example.com');
    await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
    await go('/app/settings?tab=backups', 'Settings');
    // a folder the hub cannot write to: refused by the API, the reason next to the field
    await page.getByLabel('Folder').fill('/dev/null/backups');
    await page.getByLabel('Days to keep').fill('7');
    await page.getByRole('button', { name: 'Save' }).click();
    const folder = page.locator('.field', { has: page.getByLabel('Folder') });
    await folder.locator('.error-text').filter({ hasText: 'Cannot write backups to /dev/null/backups' }).waitFor();
    expect(await page.getByLabel('Folder').getAttribute('aria-invalid')).toBe('true');
    await expect.poll(focused).toMatchObject({ tag: 'INPUT', name: 'dir', label: 'Folder' });
    await checkPage(page, 'settings-backups-error');
    await page.getByLabel('Folder').fill('backups');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect((await hub.api.get('/v1/settings/backups')).body).toMatchObject({ enabled: true, dir: path.join(dataDir, 'backups'), keep_days: 7 });
    await checkPage(page, 'settings-backups');
    // the manager again for the rest of the walk
    await context.clearCookies();
    await signIn(page, 'max@example.com');
    await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();

    await go('/app/', 'Today');
    await expect.poll(() => health().textContent()).toMatch(/Last backup\d.*\(\d+(\.\d)? (KB|MB)\)/);
    expect(await page.getByText('No backup has succeeded in the last 48 hours.').count()).toBe(0);
  });

  it('adds a printer, prints a test page the printer receives, shows a bad address’s field error, edits and removes it', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Printers' }).click();
    await page.getByRole('heading', { level: 1, name: 'Printers' }).waitFor();
    await page.getByRole('button', { name: 'Add printer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add printer' });
    await dialog.getByLabel('Name').fill('Pass printer');
    await dialog.getByLabel('Network address').fill('bad host!');
    await dialog.getByLabel('Port').fill(String(emu.port));
    await dialog.getByRole('checkbox', { name: 'Bar', exact: true }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    const address = dialog.locator('.field', { has: page.getByLabel('Network address') });
    await address.locator('.error-text').filter({ hasText: /^Must be a hostname or an IP address$/ }).waitFor();
    expect((await hub.api.get('/v1/printers')).body.data).toHaveLength(0);
    await checkPage(page, 'printers-new-error');

    await dialog.getByLabel('Network address').fill('127.0.0.1');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const row = page.locator('tr', { hasText: 'Pass printer' });
    await row.getByText(`127.0.0.1:${emu.port} · Bar`).waitFor();
    const made = (await hub.api.get('/v1/printers')).body.data[0];
    expect(made).toMatchObject({ name: 'Pass printer', transport: { type: 'tcp', host: '127.0.0.1', port: emu.port }, stations: ['bar'], is_active: true });

    await row.getByRole('button', { name: 'Print test page: Pass printer' }).click();
    await expect.poll(() => emu.texts().length).toBe(1);
    expect(emu.texts()[0]).toContain('Pass printer');
    await page.reload();
    await row.getByText('Online').waitFor();
    await checkPage(page, 'printers');
    await page.setViewportSize({ width: 768, height: 1024 });
    await checkPage(page, 'tablet-printers-list');
    await page.setViewportSize({ width: 1280, height: 800 });

    await row.getByRole('button', { name: 'Edit: Pass printer' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Pass printer' });
    await edit.getByLabel('Name').fill('Bar printer');
    await edit.getByLabel('Paper width').selectOption('58');
    await switchOn(edit, 'Prints guest receipts');
    await checkPage(page, 'printers-edit');
    await edit.getByRole('button', { name: 'Save' }).click();
    const renamed = page.locator('tr', { hasText: 'Bar printer' });
    await renamed.getByText('receipts').waitFor();
    expect((await hub.api.get(`/v1/printers/${made.id}`)).body).toMatchObject({ name: 'Bar printer', paper_width: 58, prints_receipts: true });

    await renamed.getByRole('button', { name: 'Remove: Bar printer' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove Bar printer' });
    await checkPage(page, 'printers-remove');
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await page.getByText('No printers set up.').waitFor();
    expect((await hub.api.get(`/v1/printers/${made.id}`)).status).toBe(404);
  });

  it('saves SMTP and SMS credentials through the form; neither the API answer nor the page holds them in full', async () => {
    await go('/app/settings?tab=mail', 'Settings');
    await page.getByLabel('Sender').fill('Osteria <bookings@osteria.test>');
    await switchOn(page, 'Send email');
    await page.getByLabel('SMTP server').fill('smtp.osteria.test');
    await page.getByLabel('Port', { exact: true }).fill('587');
    await page.getByLabel('User name').fill('bookings');
    await page.getByLabel('Password').fill('correct-horse-battery');
    await switchOn(page, 'Send SMS');
    await page.getByLabel('Gateway address').fill('https://sms.osteria.test/send');
    await page.getByLabel('Gateway token').fill('sms-token-0123456789');
    await checkPage(page, 'settings-mail-form');
    const answer = page.waitForResponse((r: Response) => r.url().endsWith('/v1/settings/notifications') && r.request().method() === 'PATCH');
    await page.getByRole('button', { name: 'Save' }).click();
    const res = await answer;
    expect(res.status()).toBe(200);
    const body = await res.json();
    expect(body.email.smtp).toEqual({ host: 'smtp.osteria.test', port: 587, secure: false, user: 'bookings', pass: '••••ry' });
    expect(body.sms).toMatchObject({ configured: true, url: 'https://sms.osteria.test/send', token: '••••89' });
    const text = await res.text();
    expect(text).not.toContain('correct-horse-battery');
    expect(text).not.toContain('sms-token-0123456789');
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    // the page shows that a password is set, masked; its field is empty again
    await page.getByText('Saved (••••ry). Leave empty to keep it.').waitFor();
    await page.getByText('Saved (••••89). Leave empty to keep it.').waitFor();
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    await page.reload();
    await page.getByText('Saved (••••ry). Leave empty to keep it.').waitFor();
    expect(await page.content()).not.toContain('correct-horse-battery');
    expect(await page.getByLabel('SMTP server').inputValue()).toBe('smtp.osteria.test');
    await checkPage(page, 'settings-mail');

    // another mail server without its password: refused, the stored password never goes there
    await page.getByLabel('SMTP server').fill('mail.elsewhere.test');
    await page.getByRole('button', { name: 'Save' }).click();
    // said next to the password, in the reader's words (not the API's "(pass)"), marked and focused
    const passAgain = 'The mail server changed: give its password again (a saved password only ever goes to the server it was given for)';
    const pass = page.locator('.field', { has: page.getByLabel('Password') });
    await pass.locator('.error-text').filter({ hasText: passAgain }).waitFor();
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    // the field is marked in one render and focused by an effect just after it
    await expect.poll(focused).toMatchObject({ tag: 'INPUT', name: 'smtp.pass', label: 'Password', description: `${passAgain} | Saved (••••ry). Leave empty to keep it.` });
    expect(await page.getByLabel('SMTP server').getAttribute('aria-invalid')).toBeNull();
    expect(await page.locator('.settings-form').textContent()).not.toContain('(pass)');
    await checkPage(page, 'settings-mail-error');
    expect((await hub.api.get('/v1/settings/notifications')).body.email.smtp).toMatchObject({ host: 'smtp.osteria.test', pass: '••••ry' });
    // a change of the same server without a password keeps the stored one
    await page.getByLabel('SMTP server').fill('smtp.osteria.test');
    await page.getByLabel('User name').fill('reservations');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect((await hub.api.get('/v1/settings/notifications')).body.email.smtp).toMatchObject({ host: 'smtp.osteria.test', user: 'reservations', pass: '••••ry' });
    expect(hub.server.services.guest!.dispatcher.transports).toEqual({ email: true, sms: true });
  });

  it('lists a sync conflict on Today and in Settings → Sync in words, linked to the booking', async () => {
    expect((await hub.api.patch('/v1/settings', { opening_hours: EVERY_DAY_NOON_TO_ELEVEN })).status).toBe(200);
    const table = (await hub.api.post('/v1/tables', { number: 7, capacity: 4 })).body;
    const date = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const here = await hub.api.post('/v1/reservations', { guest_name: 'Hub Guest', party_size: 2, date, time: '19:00', table: table.id });
    expect(here.status, JSON.stringify(here.body)).toBe(201);

    // the cloud booked the same table for the same evening while apart: its change reaches the hub
    const db = hub.server.services.db;
    const logged = await db.selectFrom('change_log').selectAll().where('table_name', '=', 'reservations').where('row_id', '=', here.body.id).orderBy('seq').limit(1).executeTakeFirstOrThrow();
    const wire = toWire(logged);
    const id = newId(PREFIXES.reservation);
    const fromCloud = { ...wire, op_id: newId('op'), origin: 'cloud-epoch-test', origin_seq: 1, row_id: id, data: { ...wire.data, id, guest_name: 'Cloud Guest' } };
    await hub.server.services.tx.run((trx) => applyChanges(trx, { restaurantId: hub.restaurant.id, role: 'hub', now: hub.clock.now(), hooks: hub.server.services.registry.hooks }, [fromCloud]));
    const conflicts = (await hub.api.get('/v1/sync/status')).body.conflicts;
    expect(conflicts.map((c: any) => c.kind)).toEqual(['double_booking']);

    await go('/app/', 'Today');
    const line = attention().getByRole('link', { name: /^Table 7 is booked twice on .*: (Hub Guest and Cloud Guest|Cloud Guest and Hub Guest)\. Move one of them\.$/ });
    await line.waitFor();
    await checkPage(page, 'today-conflict');
    await line.click();
    await page.getByRole('heading', { level: 1, name: 'Reservations' }).waitFor();
    await page.getByRole('dialog', { name: /(Hub|Cloud) Guest/ }).waitFor();
    expect(await page.getByLabel('Date').inputValue()).toBe(date);

    await go('/app/settings?tab=sync', 'Settings');
    const listed = page.locator('section', { has: page.getByRole('heading', { name: 'Sync conflicts' }) });
    await listed.getByRole('link', { name: /^Table 7 is booked twice/ }).waitFor();
    await page.getByText('This hub is not linked to a cloud.').waitFor();
    await checkPage(page, 'settings-sync');
  });

  it('marks a conflict as settled from Today (with a note) and from Settings → Sync: it leaves the list at once', async () => {
    await go('/app/', 'Today');
    const item = attention().locator('li', { hasText: 'Table 7 is booked twice' });
    await item.getByRole('button', { name: 'Mark as settled' }).click();
    const dialog = page.getByRole('dialog', { name: 'Mark this conflict as settled' });
    await dialog.getByText(/^Table 7 is booked twice/).waitFor();
    await dialog.getByLabel('Note (optional)').fill('Moved Cloud Guest to table 8 by phone.');
    await checkPage(page, 'today-settle-dialog');
    await dialog.getByRole('button', { name: 'Mark as settled' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => attention().getByText(/Table 7 is booked twice/).count()).toBe(0);
    expect((await hub.api.get('/v1/sync/status')).body.conflicts).toEqual([]);
    const settled = await hub.server.services.db.selectFrom('sync_resolutions').selectAll().execute();
    expect(settled.map((r) => [r.kind, r.note, r.resolved_by.slice(0, 4)])).toEqual([['double_booking', 'Moved Cloud Guest to table 8 by phone.', 'usr_']]);
    await checkPage(page, 'today-settled');

    // another table booked twice, settled in Settings → Sync from the keyboard, without a note
    const nine = (await hub.api.post('/v1/tables', { number: 9, capacity: 4 })).body;
    const date = new Date(Date.now() + 4 * 86_400_000).toISOString().slice(0, 10);
    const here = await hub.api.post('/v1/reservations', { guest_name: 'Nine Here', party_size: 2, date, time: '20:00', table: nine.id });
    expect(here.status, JSON.stringify(here.body)).toBe(201);
    const db = hub.server.services.db;
    const logged = await db.selectFrom('change_log').selectAll().where('table_name', '=', 'reservations').where('row_id', '=', here.body.id).orderBy('seq').limit(1).executeTakeFirstOrThrow();
    const wire = toWire(logged);
    const id = newId(PREFIXES.reservation);
    const fromCloud = { ...wire, op_id: newId('op'), origin: 'cloud-epoch-test', origin_seq: 2, row_id: id, data: { ...wire.data, id, guest_name: 'Nine Cloud' } };
    await hub.server.services.tx.run((trx) => applyChanges(trx, { restaurantId: hub.restaurant.id, role: 'hub', now: hub.clock.now(), hooks: hub.server.services.registry.hooks }, [fromCloud]));

    await go('/app/settings?tab=sync', 'Settings');
    const listed = page.locator('section', { has: page.getByRole('heading', { name: 'Sync conflicts' }) });
    const settle = listed.locator('li', { hasText: 'Table 9 is booked twice' }).getByRole('button', { name: 'Mark as settled' });
    await settle.focus();
    await page.keyboard.press('Enter');
    const dialog2 = page.getByRole('dialog', { name: 'Mark this conflict as settled' });
    await dialog2.getByLabel('Note (optional)').waitFor();
    // Escape closes it and nothing is settled
    await page.keyboard.press('Escape');
    await dialog2.waitFor({ state: 'hidden' });
    expect((await hub.api.get('/v1/sync/status')).body.conflicts).toHaveLength(1);
    await settle.focus();
    await page.keyboard.press('Enter');
    await dialog2.getByLabel('Note (optional)').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await listed.getByText('No conflicts.').waitFor();
    expect((await hub.api.get('/v1/sync/status')).body.conflicts).toEqual([]);
    expect(await db.selectFrom('sync_resolutions').select('note').where('row_ids', '=', JSON.stringify([here.body.id, id].sort())).execute()).toEqual([{ note: null }]);
    await checkPage(page, 'settings-sync-settled');
  });

  it('reads well on a tablet', async () => {
    await page.setViewportSize({ width: 768, height: 1024 });
    for (const [where, name] of [
      ['/app/', 'tablet-today-health'],
      ['/app/printers', 'tablet-printers'],
      ['/app/settings?tab=mail', 'tablet-settings-mail'],
      ['/app/settings?tab=backups', 'tablet-settings-backups'],
      ['/app/settings?tab=sync', 'tablet-settings-sync'],
    ]) {
      await page.goto(hub.url + where);
      await page.locator('main h1').waitFor();
      await page.locator('.loading').waitFor({ state: 'detached' });
      await checkPage(page, name);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('speaks German for a manager who chose it', async () => {
    await go('/app/account', 'Your account');
    await page.getByLabel('Language').selectOption('de');
    await page.getByRole('heading', { level: 1, name: 'Ihr Konto' }).waitFor();
    await go('/app/settings?tab=backups', 'Einstellungen');
    await page.getByRole('tab', { name: 'Backups', selected: true }).waitFor();
    await page.getByRole('button', { name: 'Jetzt sichern' }).waitFor();
    await page.getByText('Nur der Inhaber ändert, ob und wohin der Hub seine Backups schreibt.').waitFor();
    await checkPage(page, 'settings-backups-de');
    await go('/app/', 'Heute');
    await page.getByRole('heading', { name: 'Drucker, Synchronisation und Backups' }).waitFor();
    await page.getByText('Dieser Hub ist mit keiner Cloud verbunden.', { exact: false }).waitFor();
    await checkPage(page, 'today-health-de');
    await go('/app/account', 'Ihr Konto');
    await page.getByLabel('Sprache').selectOption('');
    await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
  });

  it("a server's Today loads without a single failed request, and without the managers' figures", async () => {
    const server = await hub.api.post('/v1/staff', { name: 'Sam Server', email: 'sam@example.com', role: 'server' });
    await hub.api.post(`/v1/staff/${server.body.id}/password`, { password });
    const floor = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const sam = await floor.newPage();
    sam.setDefaultTimeout(10_000);
    const failed: string[] = [];
    sam.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.request().method()} ${r.url()}`);
    });
    try {
      await signIn(sam, 'sam@example.com');
      await sam.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
      // from here on: the signed-in pages (the sign-in page's own "who is signed in?" is a 401 by design)
      failed.length = 0;
      await sam.getByRole('navigation').getByRole('link', { name: 'Today' }).click();
      await sam.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
      await sam.locator('section', { has: sam.getByRole('heading', { name: 'Needs attention' }) }).getByText('All good').waitFor();
      await checkPage(sam, 'today-server');
      expect(await sam.getByText('Revenue').count()).toBe(0);
      expect(await sam.getByRole('heading', { name: 'Printers, sync and backups' }).count()).toBe(0);
      expect(failed).toEqual([]);
    } finally {
      await floor.close();
    }
  });
});
