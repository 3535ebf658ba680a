// The back office as a tablet opens it at /app/service (the server sends service.html there):
// the same app, with the order-entry page in its first load. Its code and the chunks it needs
// are then fetched beside the app's own (modulepreload), not after the app has started, and
// the page's module asks for the floor before the app draws anything.
import './pages/service.tsx';
import './main.tsx';
