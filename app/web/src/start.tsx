import { render } from 'preact';
import './styles.css';
import './i18n/back-office.ts';
import { App } from './app.tsx';
import { onLinkClick } from './lib/router.ts';

/**
 * Draws the back office. Each entry calls it after what it loads first: service.html's entry
 * registers the order-entry page before it (service-main.tsx). On import alone the first draw
 * would run with the chunk the two entries share, which the built service.html runs as a
 * script of its own ahead of the page's: the session's answer could then arrive before the
 * page was registered, and the tablet drew a Loading frame in the floor's place.
 */
export function startApp(): void {
  document.addEventListener('click', onLinkClick);
  render(<App />, document.getElementById('root')!);
}
