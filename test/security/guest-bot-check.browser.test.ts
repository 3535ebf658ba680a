import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guestOf } from '../../server/http/guest-services.ts';
import type { TestHub } from '../helpers/server.ts';
import { signedInHub, IN_BROWSER } from '../backoffice/browser.ts';

/**
 * Issue 40: the owner turns on "ask every guest for a bot check" in Settings; a guest's phone
 * then joining the waitlist or leaving feedback is asked (403 captcha_required), solves the
 * challenge the answer names, and sends again, without the guest doing anything.
 */
describe('the guest pages solve the bot check when asked', IN_BROWSER, () => {
  let hub: TestHub;
  let browser: Browser;
  let page: Page;
  let phone: Page;
  let close = async () => {};
  const asked: string[] = [];

  beforeAll(async () => {
    ({ hub, browser, page, close } = await signedInHub('Chez Bot'));
    guestOf(hub.server.services).captchaMaxNumber = 5000;
    expect((await hub.api.patch('/v1/settings', { opening_hours: { monday: [{ open: '00:00', close: '23:59' }] }, waitlist: { enabled: true } })).status).toBe(200);
    phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB', isMobile: true, hasTouch: true })).newPage();
    phone.setDefaultTimeout(15_000);
    // what the hub answered the phone's guest writes, in order
    phone.on('response', (r) => {
      if (r.request().method() === 'POST' && /\/public\/restaurants\/[^/]+\/(waitlist\/join|feedback)$/.test(r.url())) {
        // in the order answered; an error's code filled in once read (a 201 navigates away first)
        const i = asked.push(String(r.status())) - 1;
        if (r.status() >= 400) void r.json().then((b) => (asked[i] = `${r.status()} ${b.error.code}`), () => {});
      }
    });
  }, 60_000);
  afterAll(() => close());

  const usedChallenges = async () =>
    Number((await (hub.server.services.db as any).selectFrom('captcha_challenges').select((eb: any) => eb.fn.countAll().as('n')).where('used_at', 'is not', null).executeTakeFirst()).n);

  it('the owner asks every guest in Settings; the join page and the feedback page solve it and get in', async () => {
    // as the venue starts (again, on a retry)
    expect((await hub.api.patch('/v1/settings', { guest_bot_check: 'when_busy' })).status).toBe(200);
    await hub.api.get('/v1/waitlist?status=waiting').then((r) => Promise.all(r.body.data.map((e: { id: string }) => hub.api.delete(`/v1/waitlist/${e.id}`))));
    asked.length = 0;
    const usedBefore = await usedChallenges();
    await page.reload();
    await page.getByRole('link', { name: 'Settings' }).click();
    const always = page.getByRole('switch', { name: 'Ask every guest for a bot check' });
    await expect.poll(() => always.isChecked()).toBe(false);
    await page.locator('label.toggle', { hasText: 'Ask every guest for a bot check' }).click();
    await expect.poll(() => always.isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').getByText('Saved').waitFor();
    expect((await hub.api.get('/v1/settings')).body.guest_bot_check).toBe('always');

    await phone.goto(`${hub.url}/r/${hub.restaurant.slug}/waitlist`);
    await phone.getByLabel('Your name').fill('Grace');
    await phone.getByLabel(/^Party size/).fill('2');
    await phone.getByLabel('Mobile phone').fill('+49 151 23456789');
    await phone.getByLabel(/I agree/).check();
    await phone.getByRole('button', { name: 'Join the waitlist' }).click();
    await phone.waitForURL(/\/waitlist\/[\w.-]+$/);
    await phone.getByRole('heading', { name: 'You are number 1' }).waitFor();
    expect((await hub.api.get('/v1/waitlist')).body.data.map((e: { guest_name: string }) => e.guest_name)).toContain('Grace');

    await phone.goto(`${hub.url}/r/${hub.restaurant.slug}/feedback`);
    await phone.locator('label.star', { has: phone.getByRole('radio', { name: '5 of 5 stars' }) }).click();
    await phone.getByRole('button', { name: 'Send feedback' }).click();
    await phone.getByRole('heading', { name: 'Thank you for your feedback!' }).waitFor();
    expect((await hub.api.get('/v1/feedback')).body.data[0]).toMatchObject({ rating: 5, source: 'guest' });

    // each write was asked first, then taken with a solved challenge
    await expect.poll(() => asked).toEqual(['403 captcha_required', '201', '403 captcha_required', '201']);
    expect(await usedChallenges()).toBe(usedBefore + 2);
  }, 90_000); // 90 s: Chromium and a hub on a shared 2-core box, the back office and two guest pages
});
