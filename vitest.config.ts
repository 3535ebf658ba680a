import fs from 'node:fs';
import path from 'node:path';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

// The tests in tiers (docs/contributors/testing.md), each a vitest project; `npm test` runs them
// all, `npm run test:quick` unit and API on SQLite. A file's tier follows from its folder, its
// name or what it imports, never from a list, so a new file finds its tier by itself:
//   unit        *.unit.test.ts and test/web/: no server, no database
//   api         the rest, in process, each file on every dialect of the run (describe.each(DIALECTS));
//               not one project per dialect: several files hold dialect-free suites beside the
//               per-dialect ones, which a split would run twice
//   processes   files that start processes (child_process, helpers/comanda-process) and the
//               hub–cloud pairs of test/sync (SQLite hub, PostgreSQL cloud)
//   browser     *.browser.test.ts, driving Chromium
// *.pg.test.ts files hold PostgreSQL-only tests; a run without PostgreSQL leaves them, and
// test/sync, out rather than failing them for having nothing to run.
const dialects = (process.env.TEST_DIALECTS ?? 'sqlite,postgres').split(',').filter((d) => d === 'sqlite' || d === 'postgres');
const withPostgres = dialects.includes('postgres');

const UNIT = ['test/**/*.unit.test.ts', 'test/web/**/*.test.ts'];
const BROWSER = ['test/**/*.browser.test.ts'];
const SYNC = ['test/sync/**/*.test.ts'];
const PG_ONLY = ['test/**/*.pg.test.ts'];

const files = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.test.ts') ? [path.join(dir, e.name)] : []));
const source = new Map(files('test').map((f) => [f.split(path.sep).join('/'), fs.readFileSync(f, 'utf8')]));
const inProcess = (f: string) => !/\.(unit|browser)\.test\.ts$/.test(f) && !f.startsWith('test/web/') && !f.startsWith('test/sync/');
const startsProcesses = (src: string) => /from '(node:)?child_process'|helpers\/comanda-process/.test(src);
const PROCESSES = [...source].filter(([f, src]) => inProcess(f) && startsProcesses(src)).map(([f]) => f);
// A file that replaces a module (vi.mock) needs a module graph of its own: in a shared one the
// real module is already loaded into whatever imports it, and the mock would outlive the file.
const MOCKS = [...source].filter(([f, src]) => inProcess(f) && !startsProcesses(src) && /\bvi\.mock\(/.test(src)).map(([f]) => f);

const shared = {
  globalSetup: [] as string[], // the root's (below) runs once for every project: one build, one PostgreSQL
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
  exclude: [...configDefaults.exclude, ...(withPostgres ? [] : [...SYNC, ...PG_ONLY])],
};

const tier = (name: string, test: { include: string[]; exclude?: string[]; isolate?: boolean; testTimeout?: number }): TestProjectInlineConfiguration => ({
  test: { ...shared, name, ...test, exclude: [...shared.exclude, ...(test.exclude ?? [])] },
});

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-setup.ts'],
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      tier('unit', { include: UNIT, isolate: false }),
      tier('api', { include: ['test/**/*.test.ts'], exclude: [...UNIT, ...BROWSER, ...SYNC, ...PROCESSES, ...MOCKS], isolate: false }),
      tier('api-alone', { include: MOCKS }),
      tier('processes', { include: [...PROCESSES, ...SYNC], exclude: BROWSER, isolate: false }),
      // 90 s: a test drives a real Chromium and a hub on a shared 2-core box, where one step can
      // take seconds under load; it guards against a hung test (no test asserts a timing)
      tier('browser', { include: BROWSER, isolate: false, testTimeout: 90_000 }),
    ],
  },
});
