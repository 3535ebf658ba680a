// Electron loads this (`npm run desktop`, and the packaged app's main): it runs the main
// process's TypeScript directly through tsx, so nothing is built first. The server it starts
// is bin/comanda, which runs the hub bundle (dist/hub) for a fast cold start.
import { register } from 'tsx/esm/api';
register();
await import('./electron-entry.ts');
