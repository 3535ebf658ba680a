// Electron loads this (`npm run desktop`, and the packaged app's main): it runs the
// TypeScript sources directly through tsx, like bin/comanda does, so nothing is built first.
import { register } from 'tsx/esm/api';
register();
await import('./electron-entry.ts');
