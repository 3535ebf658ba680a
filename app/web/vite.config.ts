import { defineConfig, type Plugin } from 'vite';

/**
 * The head the pages share (index.html, service.html, screens.html, guest.html): each of those files
 * holds only what is its own (title, colour scheme, entry script).
 */
const sharedHead = (): Plugin => ({
  name: 'comanda-shared-head',
  transformIndexHtml: {
    order: 'pre',
    handler: () => [
      { tag: 'meta', attrs: { charset: 'utf-8' }, injectTo: 'head-prepend' },
      { tag: 'meta', attrs: { name: 'viewport', content: 'width=device-width, initial-scale=1' }, injectTo: 'head' },
      // no favicon request to a hub that has none
      { tag: 'link', attrs: { rel: 'icon', href: 'data:,' }, injectTo: 'head' },
    ],
  },
});

// Preact through esbuild's automatic JSX runtime: no Babel preset, nothing fetched at runtime.
export default defineConfig({
  root: import.meta.dirname,
  base: '/app/',
  plugins: [sharedHead()],
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
    // three pages: the back office, the kitchen/expo/floor screens, the guest pages (kept small
    // for phones); and the back office again with the order-entry page in its first load, for
    // the tablets that open /app/service
    rollupOptions: {
      input: {
        main: `${import.meta.dirname}/index.html`,
        service: `${import.meta.dirname}/service.html`,
        screens: `${import.meta.dirname}/screens.html`,
        guest: `${import.meta.dirname}/guest.html`,
      },
    },
  },
  logLevel: 'warn',
});
