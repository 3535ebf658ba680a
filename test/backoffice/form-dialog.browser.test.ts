import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestHub } from '../helpers/server.ts';
import { checkPage, expectAccessible, shot, signedInHub, IN_BROWSER } from './browser.ts';

/**
 * The back office's one form dialog and one confirmation, from the keyboard: a dialog opens on
 * its first field, a refusal is said next to the field it concerns in the reader's words (not the
 * API's), with aria-invalid and the focus on it, and focus goes back to the opener after Save;
 * a remove is asked once more.
 */
describe('form dialogs and confirmations in the browser', IN_BROWSER, () => {
  let hub: TestHub;
  let page: Page;
  let close = async () => {};

  beforeAll(async () => ({ hub, page, close } = await signedInHub('Osteria Tastiera')), 60_000);
  afterAll(() => close());

  const go = async (path: string, heading: string) => {
    await page.goto(hub.url + path);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  };
  // functions passed to evaluate run in the page: its globals are reached through globalThis
  // a closing dialog hands focus back in an effect just after it leaves the page: read it with expect.poll
  const focused = () =>
    page.evaluate(() => {
      const el = (globalThis as any).document.activeElement;
      return { tag: el?.tagName ?? '', name: el?.getAttribute('name') ?? '', text: el?.textContent ?? '', label: el?.labels?.[0]?.textContent ?? '' };
    });
  /** The texts that describe the focused control (aria-describedby), joined. */
  const focusedDescription = () =>
    page.evaluate(() => {
      const doc = (globalThis as any).document;
      const ids: string[] = (doc.activeElement?.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
      return ids.map((id) => doc.getElementById(id)?.textContent ?? '').join(' | ');
    });

  it('a modifier group with bounds the API refuses: the error sits next to “At most”, focused, in words; fixed, saved, focus back on the opener', async () => {
    await go('/app/menu?tab=groups', 'Menu');
    await page.getByRole('button', { name: 'New modifier group' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New modifier group' });
    await dialog.waitFor();
    // opens on its first field, not on Close
    await expect.poll(focused).toMatchObject({ tag: 'INPUT', name: 'name', label: 'Name' });
    await page.keyboard.type('Size');
    await dialog.getByLabel('At least').fill('2');
    await dialog.getByLabel('At most').fill('1');
    await dialog.getByLabel('Choice 1').fill('Small');
    await dialog.getByRole('button', { name: 'Save' }).click();

    const most = dialog.getByLabel('At most');
    await expect.poll(() => most.getAttribute('aria-invalid')).toBe('true');
    // the field is marked in the render, and focused by an effect just after it: poll for both
    await expect.poll(focused).toMatchObject({ tag: 'INPUT', name: 'max_selections', label: 'At most' });
    // the reader's words with the number they typed, not "max_selections must be at least min_selections"
    expect(await focusedDescription()).toBe('Must be at least 2');
    expect(await dialog.textContent()).not.toContain('max_selections');
    expect(await dialog.locator('.field', { has: page.getByLabel('At most') }).locator('.error-text').textContent()).toBe('Must be at least 2');
    expect(await dialog.getByLabel('At least').getAttribute('aria-invalid')).toBeNull();
    expect((await hub.api.get('/v1/modifier_groups')).body.data).toHaveLength(0);
    await expectAccessible(page, 'group dialog with a refused field');
    await shot(page, 'form-dialog-field-error');

    // fixed: the next refusal (two to choose from one choice) moves to its own field
    await page.keyboard.press('Control+A');
    await page.keyboard.type('2');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const least = dialog.getByLabel('At least');
    await expect.poll(() => least.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(focused).toMatchObject({ name: 'min_selections' });
    expect(await focusedDescription()).toBe('Must be at most 1');
    expect(await most.getAttribute('aria-invalid')).toBeNull();

    await dialog.getByRole('button', { name: 'Add a choice' }).click();
    await dialog.getByLabel('Choice 2').fill('Large');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    // focus is back on the button that opened the dialog
    await expect.poll(focused).toMatchObject({ tag: 'BUTTON', text: 'New modifier group' });
    expect((await hub.api.get('/v1/modifier_groups')).body.data[0]).toMatchObject({ name: 'Size', min_selections: 2, max_selections: 2 });
    await page.locator('tr', { hasText: 'Size' }).getByText('Small, Large').waitFor();
    await checkPage(page, 'form-dialog-groups');
  });

  it('a choice refused after an empty row: the error sits under the row the reader sees, not the one the API counted', async () => {
    await go('/app/menu?tab=groups', 'Menu');
    await page.getByRole('button', { name: 'New modifier group' }).click();
    const dialog = page.getByRole('dialog', { name: 'New modifier group' });
    await dialog.getByLabel('Name', { exact: true }).fill('Milk');
    await dialog.getByLabel('Choice 1').fill('Oat');
    // Choice 2 stays empty (left out of what is sent); Choice 3 repeats Choice 1, which the API refuses as modifiers[1]
    await dialog.getByRole('button', { name: 'Add a choice' }).click();
    await dialog.getByRole('button', { name: 'Add a choice' }).click();
    await dialog.getByLabel('Choice 3').fill('oat');
    await dialog.getByRole('button', { name: 'Save' }).click();

    const third = dialog.getByLabel('Choice 3');
    await expect.poll(() => third.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(focused).toMatchObject({ tag: 'INPUT', name: 'modifiers[2].name', label: 'Choice 3' });
    expect(await focusedDescription()).toBe('Already a choice in this group');
    expect(await dialog.getByLabel('Choice 2').getAttribute('aria-invalid')).toBeNull();
    expect(await dialog.getByLabel('Choice 1').getAttribute('aria-invalid')).toBeNull();
    expect((await hub.api.get('/v1/modifier_groups')).body.data.filter((g: { name: string }) => g.name === 'Milk')).toHaveLength(0);
    await expectAccessible(page, 'group dialog with a refused choice after an empty row');
    await shot(page, 'form-dialog-choice-after-empty-row');

    await third.fill('Soy');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const saved = (await hub.api.get('/v1/modifier_groups')).body.data.find((g: { name: string }) => g.name === 'Milk');
    expect(saved.modifiers.map((m: { name: string }) => m.name)).toEqual(['Oat', 'Soy']);
  });

  it('a table number already in use: “Already used” next to the number; Escape closes and gives focus back', async () => {
    expect((await hub.api.post('/v1/tables', { number: 7, capacity: 2 })).status).toBe(201);
    await go('/app/floor', 'Floor');
    await page.getByRole('button', { name: 'New table' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New table' });
    await dialog.waitFor();
    await expect.poll(focused).toMatchObject({ name: 'number', label: 'Table number' });
    await page.keyboard.type('7');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.getByLabel('Table number').getAttribute('aria-invalid')).toBe('true');
    await expect.poll(focused).toMatchObject({ name: 'number' });
    expect(await focusedDescription()).toBe('Already used');
    await expectAccessible(page, 'table dialog with a number in use');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(focused).toMatchObject({ tag: 'BUTTON', text: 'New table' });
    expect((await hub.api.get('/v1/tables')).body.data).toHaveLength(1);
  });

  it('removing a table from its edit dialog asks first, in the same confirmation', async () => {
    await go('/app/floor', 'Floor');
    await page.getByRole('button', { name: 'Edit table 7' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit table 7' });
    await dialog.getByRole('button', { name: 'Remove table' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove table 7?' });
    await confirm.getByText('Table 7 and its QR code stop working.', { exact: false }).waitFor();
    await expect.poll(focused).toMatchObject({ tag: 'BUTTON', text: 'Cancel' });
    await expectAccessible(page, 'table remove confirmation');
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('No tables yet.').waitFor();
    expect((await hub.api.get('/v1/tables')).body.data).toHaveLength(0);
  });

  it('removing a webhook endpoint asks first: Cancel keeps it and gives focus back, Remove removes it', async () => {
    const made = await hub.api.post('/v1/webhook_endpoints', { url: 'https://hooks.example.com/till', enabled_events: ['order.created'] });
    expect(made.status).toBe(201);
    await go('/app/webhooks', 'Webhooks');
    const remove = page.getByRole('button', { name: 'Remove: https://hooks.example.com/till' });
    await remove.focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Remove https://hooks.example.com/till?' });
    await confirm.waitFor();
    await confirm.getByText('No more events will be sent to this address.').waitFor();
    // the safe choice holds the focus: an Enter pressed by habit removes nothing
    await expect.poll(focused).toMatchObject({ tag: 'BUTTON', text: 'Cancel' });
    await checkPage(page, 'form-dialog-webhook-confirm');
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'hidden' });
    await expect.poll(focused).toMatchObject({ tag: 'BUTTON', text: 'Remove' });
    expect((await hub.api.get('/v1/webhook_endpoints')).body.data).toHaveLength(1);

    await page.keyboard.press('Enter');
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await page.getByText('No endpoints.').waitFor();
    expect((await hub.api.get('/v1/webhook_endpoints')).body.data).toHaveLength(0);
    await expectAccessible(page, 'webhooks after removing');
  });

  it('removing a menu item asks first too, through the same confirmation', async () => {
    const cat = await hub.api.post('/v1/menu_categories', { name: 'Starters' });
    await hub.api.post('/v1/menu_items', { name: 'Bruschetta', category: cat.body.id, price: 650 });
    await go('/app/menu', 'Menu');
    await page.getByRole('button', { name: 'Remove Bruschetta' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove Bruschetta' });
    await confirm.getByText(/Bruschetta leaves the menu/).waitFor();
    await expectAccessible(page, 'menu item remove confirmation');
    expect((await hub.api.get('/v1/menu_items')).body.data[0].is_active).toBe(true);
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await hub.api.get('/v1/menu_items?is_active=false')).body.data[0]?.is_active).toBe(false);
  });

  it('Escape and a tap on the opener in the same moment leave the dialog open; once closed, the page takes taps at once', async () => {
    const cat = await hub.api.post('/v1/menu_categories', { name: 'Desserts' });
    await hub.api.post('/v1/menu_items', { name: 'Panna cotta', category: cat.body.id, price: 550 });
    await go('/app/menu', 'Menu');
    await page.getByRole('button', { name: 'Remove Panna cotta' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove Panna cotta' });
    await confirm.waitFor();
    // the native dialog closes itself on Escape and says so a task later: a tap in between found
    // the page still thinking it open, and the dialog stayed shut
    await page.evaluate(() => {
      const doc = (globalThis as any).document;
      doc.querySelector('dialog[open]').requestClose();
      [...doc.querySelectorAll('button')].find((b: any) => b.textContent === 'Remove Panna cotta' || b.getAttribute('aria-label') === 'Remove Panna cotta').click();
    });
    // the close event, had it been left to the native dialog, was queued before this timer
    await page.evaluate(() => new Promise((done) => setTimeout(done, 50)));
    expect(await page.evaluate(() => (globalThis as any).document.querySelector('dialog[open]') !== null)).toBe(true);
    await confirm.waitFor();
    // closed, it lets go of the page in the same task: a dialog still modal until after the
    // paint left the page inert, and the next tap did nothing
    const after = await page.evaluate(async () => {
      const doc = (globalThis as any).document;
      doc.querySelector('dialog[open]').requestClose();
      // the page renders in a microtask; an effect after the paint comes much later
      for (let i = 0; i < 5; i++) await Promise.resolve();
      const opener = [...doc.querySelectorAll('button')].find((b: any) => b.textContent === 'Remove Panna cotta' || b.getAttribute('aria-label') === 'Remove Panna cotta');
      opener.focus();
      return { open: doc.querySelector('dialog[open]') !== null, opener: doc.activeElement === opener };
    });
    expect(after).toEqual({ open: false, opener: true });
    await confirm.waitFor({ state: 'hidden' });
    expect((await hub.api.get('/v1/menu_items')).body.data.find((i: any) => i.name === 'Panna cotta').is_active).toBe(true);
  });
});
