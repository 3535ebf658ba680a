import type { APIResponse, Page, Route } from 'playwright-core';

/**
 * A slow network for some of a page's requests: each one reaches the server at once, and the
 * server's answer is kept from the page until `letThrough`. What a busy hub does now and then
 * (CI saw it on the floor screen), made certain: an answer read before something changed
 * arrives after the page has heard of the change.
 */
export interface LateAnswers {
  /** every request held so far has its answer from the server (and there is one) */
  answered(): boolean;
  /** how many are held */
  count(): number;
  /** requests from now on go through as usual (those held stay held) */
  stop(): void;
  /**
   * Hands the held answers to the page, the newest first (the oldest lands last, the worst
   * case), and returns once the page has read them and drawn a frame after: what it did with
   * them is on screen.
   */
  letThrough(): Promise<void>;
  /** Stops holding and takes the slow network away (a test's `finally`: once more is harmless). */
  close(): Promise<void>;
}

/** Holds the answers to `page`'s requests whose URL matches `url`, after the first `pass` of them. */
export async function holdAnswers(page: Page, url: RegExp, { pass = 0 } = {}): Promise<LateAnswers> {
  let holding = true;
  let seen = 0;
  let asked = 0;
  const held: { route: Route; response: APIResponse }[] = [];
  await page.route(url, async (route) => {
    if (!holding || ++seen <= pass) return route.continue();
    asked++;
    held.push({ route, response: await route.fetch() });
  });
  const stop = () => {
    holding = false;
  };
  const close = async () => {
    stop();
    await page.unroute(url);
  };
  return {
    answered: () => held.length > 0 && held.length === asked,
    count: () => held.length,
    stop,
    close,
    async letThrough() {
      stop();
      const late = held.splice(0).reverse();
      for (const h of late) await h.route.fulfill({ response: h.response });
      await close();
      for (const h of late) await (await h.route.request().response())?.finished();
      // two frames: the answers' promises have run, and the page has drawn what they changed
      await page.evaluate(() => {
        const w = globalThis as unknown as { requestAnimationFrame: (f: () => void) => void };
        return new Promise<void>((drawn) => w.requestAnimationFrame(() => w.requestAnimationFrame(drawn)));
      });
    },
  };
}
