import { configDefaults, defineConfig } from 'vitest/config';

// Sync runs a hub on SQLite against a cloud on PostgreSQL: a run without PostgreSQL
// (TEST_DIALECTS=sqlite, while working) leaves those files out rather than failing them.
const withPostgres = (process.env.TEST_DIALECTS ?? 'sqlite,postgres').split(',').includes('postgres');

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(withPostgres ? [] : ['test/sync/**'])],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
  },
});
