import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IN_BROWSER, OWNER } from '../backoffice/browser.ts';
import { holdAnswers } from '../backoffice/late-answers.ts';
import { until } from '../helpers/until.ts';
import { eur, openServiceTablet, signInByPin, trustedTablet, type ServiceTablet } from './tablet.ts';

const VIEWPORT = { width: 1280, height: 800 };

/**
 * The service page's floor against a slow answer: it loads the open checks when it opens and
 * again once the feed follows them, and the second answer can land after a check's message
 * (the floor screen lost a check this way in CI: test/screens/floor.browser.test.ts).
 */
describe('the service floor with a late answer in the browser', IN_BROWSER, () => {
  let tablet: ServiceTablet;

  beforeAll(async () => {
    tablet = await openServiceTablet(VIEWPORT);
  }, 90_000); // 90 s: Chromium and a hub on a shared 2-core box
  afterAll(() => tablet?.close());

  let lastNumber = 100;

  it('keeps a check opened while an older load of the open checks is still on its way', async () => {
    const { hub, menu } = tablet;
    // a tablet and a table of this attempt's own: a retry starts signed out, at a free table
    const page = await trustedTablet(tablet.browser, hub, VIEWPORT, OWNER);
    const table = await hub.api.post('/v1/tables', { number: ++lastNumber, capacity: 4 });
    expect(table.status).toBe(201);
    // the first load goes through (the floor is drawn with it); the one made when the feed follows is held
    const late = await holdAnswers(page, /\/v1\/orders\?/, { pass: 1 });
    try {
      await signInByPin(page, hub.url, 'Mia Manager', '2468');
      const tile = page.locator(`[data-table="${lastNumber}"]`);
      await tile.getByText('Free').waitFor();
      await until('the reload when the feed follows, answered by the server', late.answered, { diagnose: () => ({ held: late.count() }) });
      const order = (await hub.api.withKey(hub.keys.widget).post('/public/orders', { type: 'dine-in', tableId: table.body.id, items: [{ menuItemId: menu.pasta, quantity: 2 }] })).body;
      late.stop();
      await tile.getByText('Ordered').waitFor();
      await late.letThrough();
      await until(`the tile still showing ${eur(order.total)}`, async () => (await tile.textContent())?.includes(eur(order.total)), { diagnose: async () => ({ tile: await tile.textContent() }) });
    } finally {
      await late.close();
      await page.context().close();
    }
  });
});
