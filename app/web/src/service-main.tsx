// The back office as a tablet opens it at /app/service (the server sends service.html there):
// the same app, with the order-entry page in its first load. Its code and the chunks it needs
// are then fetched beside the app's own, not after the app has started; the page's module
// registers itself (lib/loaded-pages.ts) before the app's first draw, so the app draws it at
// once, with its first data.
import './pages/service.tsx';
import { startApp } from './start.tsx';

startApp();
