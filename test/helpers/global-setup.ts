import { execFileSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from './embedded-postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string | null;
  }
}


/**
 * Gives the tests a real PostgreSQL: TEST_DATABASE_URL when set, otherwise an embedded
 * server (the npm package ships the binaries) started once for the whole run.
 */
export default async function setup(project: TestProject) {
  // Every `bin/comanda` a test starts runs the hub bundle: made once here if the sources
  // changed, rather than by each of those processes at once.
  execFileSync(process.execPath, ['bin/build-hub.mjs', '--if-stale'], { stdio: 'inherit' });
  const dialects = (process.env.TEST_DIALECTS ?? 'sqlite,postgres').split(',');
  if (!dialects.includes('postgres')) {
    project.provide('pgUrl', null);
    return;
  }
  if (process.env.TEST_DATABASE_URL) {
    project.provide('pgUrl', process.env.TEST_DATABASE_URL);
    return;
  }
  const pg = await startEmbeddedPostgres(['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300']);
  project.provide('pgUrl', pg.url);
  return () => pg.stop();
}
