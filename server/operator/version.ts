import { createRequire } from 'node:module';

/** comanda's version, from package.json. */
export const VERSION: string = createRequire(import.meta.url)('../../package.json').version;
