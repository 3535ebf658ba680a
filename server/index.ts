export { createServer, type ComandaServer, type ServerOptions } from './server.ts';
export { openDatabase, type Database } from './db/database.ts';
export { ManualClock, systemClock, type Clock } from './clock.ts';
