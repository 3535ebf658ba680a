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
  // Tests run built output as everything else does (bin/comanda runs dist/hub, the pages are
  // app/web/dist, the desktop app dist/electron): the one build, here once if the sources
  // changed, so `npx vitest run` works on a fresh clone too.
  execFileSync(process.execPath, ['bin/build.mjs', '--if-stale'], { stdio: 'inherit' });
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
