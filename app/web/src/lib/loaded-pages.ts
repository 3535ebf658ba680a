import type { ComponentType } from 'preact';
import { signal } from '@preact/signals';

/**
 * Pages whose module came with the app's first load (service.html loads the order-entry page's
 * module with the app's). The app draws such a page at once: through `lazy()` it would first
 * draw the fallback, paint a frame, and wait a task for a module already there.
 */
export const loadedPages = new Map<string, ComponentType<any>>();

/**
 * False while the page loaded with the app waits for the first data it was sent with the HTML
 * (the floor and its open checks): the app shows Loading until then, so its first real draw is
 * the page with its data, not the shell with an empty page drawn again a moment later.
 */
export const firstDataIn = signal(true);

/** holds the app's first draw until `data` settles, or `atMost` ms (a hub that does not answer still gets its page drawn) */
export function holdFirstDraw(data: Promise<unknown>, atMost = 3000): void {
  firstDataIn.value = false;
  const done = () => (firstDataIn.value = true);
  void data.finally(done);
  setTimeout(done, atMost);
}
