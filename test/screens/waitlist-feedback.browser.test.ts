import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { checkPage, launch, IN_BROWSER } from '../backoffice/browser.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

/** The guest's waitlist and feedback pages on a 390×844 phone against a real hub. */
describe('waitlist and feedback pages in the browser', IN_BROWSER, () => {
  let hub: TestHub;
  let browser: Browser;
  let phone: Page;

  beforeAll(async () => {
    hub = await startHub('sqlite', { clock: new ManualClock(Date.now()) });
    const all = [{ open: '00:00', close: '23:59' }];
    const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
    const set = await hub.api.patch('/v1/settings', { timezone: 'UTC', opening_hours: Object.fromEntries(days.map((d) => [d, all])), waitlist: { enabled: true, max_party_size: 8 } });
    expect(set.status).toBe(200);
    browser = await launch();
    phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB', isMobile: true, hasTouch: true })).newPage();
    phone.setDefaultTimeout(10_000);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it('joins, moves up when the party ahead is seated, hears "your table is ready" at once, leaves', async () => {
    const walkIn = (await hub.api.post('/v1/waitlist', { guest_name: 'Walk-in', party_size: 2 })).body;
    await phone.goto(`${hub.url}/r/${hub.restaurant.slug}/waitlist`);
    await phone.getByRole('heading', { level: 1, name: 'Test Bistro' }).waitFor();
    await phone.getByText('1 party waiting').waitFor();
    await checkPage(phone, 'waitlist-join');
    await phone.getByLabel('Your name').fill('Grace');
    await phone.getByLabel(/^Party size/).fill('3');
    await phone.getByLabel('Mobile phone').fill('+49 151 23456789');
    await phone.getByLabel(/I agree/).check();
    await phone.getByRole('button', { name: 'Join the waitlist' }).click();
    await phone.waitForURL(/\/waitlist\/[\w.-]+$/);
    await phone.getByRole('heading', { name: 'You are number 2' }).waitFor();
    await phone.getByText('1 party ahead of you').waitFor();
    await checkPage(phone, 'waitlist-status');

    expect((await hub.api.post(`/v1/waitlist/${walkIn.id}/seat`)).status).toBe(200);
    await phone.getByRole('heading', { name: 'You are number 1' }).waitFor({ timeout: 15_000 });

    const mine = ((await hub.api.get('/v1/waitlist')).body.data as { id: string; guest_name: string }[]).find((e) => e.guest_name === 'Grace')!;
    expect((await hub.api.post(`/v1/waitlist/${mine.id}/notify`, {})).status).toBe(200);
    await phone.getByRole('heading', { name: 'Your table is ready!' }).waitFor();
    await checkPage(phone, 'waitlist-ready');
    await phone.getByRole('button', { name: 'Leave the list' }).click();
    await phone.getByRole('heading', { name: 'You have left the waitlist.' }).waitFor();
    expect((await hub.api.get(`/v1/waitlist/${mine.id}`)).body).toMatchObject({ status: 'cancelled', cancelled_by: 'guest', source: 'online' });
  }, 90_000); // 90 s: Chromium and a hub on a shared 2-core box, through several pages

  it('leaves feedback: stars required, a comment, thanks', async () => {
    await phone.goto(`${hub.url}/r/${hub.restaurant.slug}/feedback`);
    await phone.getByRole('heading', { level: 1, name: 'How was your visit?' }).waitFor();
    await phone.getByRole('button', { name: 'Send feedback' }).click();
    await phone.getByRole('alert').filter({ hasText: 'Choose a rating' }).waitFor();
    await phone.locator('label.star', { has: phone.getByRole('radio', { name: '4 of 5 stars' }) }).click();
    expect(await phone.getByRole('radio', { name: '4 of 5 stars' }).isChecked()).toBe(true);
    await phone.getByLabel(/Anything you want to tell us/).fill('Lovely pasta');
    await checkPage(phone, 'feedback');
    await phone.getByRole('button', { name: 'Send feedback' }).click();
    await phone.getByRole('heading', { name: 'Thank you for your feedback!' }).waitFor();
    expect((await hub.api.get('/v1/feedback')).body.data[0]).toMatchObject({ rating: 4, comment: 'Lovely pasta', source: 'guest' });
  });
});
