import { defineConfig } from 'vite';

// Preact through esbuild's automatic JSX runtime: no Babel preset, nothing fetched at runtime.
export default defineConfig({
  root: import.meta.dirname,
  base: '/app/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  resolve: { alias: { react: 'preact/compat', 'react-dom': 'preact/compat' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    assetsInlineLimit: 0,
    // cheap Android tablets: keep the first load small, uPlot only on the analytics page
    chunkSizeWarningLimit: 200,
    reportCompressedSize: false,
    // three pages: the back office, the kitchen/expo/floor screens, the guest pages (kept small for phones)
    rollupOptions: {
      input: {
        main: `${import.meta.dirname}/index.html`,
        screens: `${import.meta.dirname}/screens.html`,
        guest: `${import.meta.dirname}/guest.html`,
      },
    },
  },
  logLevel: 'warn',
});
