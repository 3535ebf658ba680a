import { defineConfig } from 'vitest/config';

// The real-Electron smoke test (`npm run test:electron`): only where Electron runs, i.e. on the
// build machines of .github/workflows/desktop.yml or a developer's desktop. Its files end in
// .e2e.ts, which the main run (test/**/*.test.ts) does not include: it needs an Electron
// binary and a display, which the machines that run `npm test` do not have.
export default defineConfig({
  test: {
    include: ['test/desktop-app/**/*.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 1,
  },
});
