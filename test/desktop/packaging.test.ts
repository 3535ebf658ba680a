import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const config = parse(fs.readFileSync('electron-builder.yml', 'utf8'));
const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const targets = (os: any) => os.target.map((t: any) => (typeof t === 'string' ? t : t.target));

// The recipe; package.test.ts packs it and runs what comes out.
describe('electron-builder.yml', () => {
  it('names the app and starts the built main process', () => {
    expect(config.appId).toBe('app.comanda.hub');
    expect(config.productName).toBe('comanda');
    expect(config.extraMetadata.main).toBe('dist/electron/main.mjs');
    // the Electron it packages is the one the app is developed against
    expect(pkg.optionalDependencies.electron.replace(/^\^/, '').split('.')[0]).toBe(String(config.electronVersion).split('.')[0]);
    expect(pkg.dependencies.electron).toBeUndefined();
    expect(pkg.dependencies['electron-updater']).toBeDefined();
    // the packager is pinned, not fetched by npx at whatever version
    expect(pkg.devDependencies['electron-builder']).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pkg.scripts['desktop:dist']).toBe('node bin/desktop-dist.mjs');
  });

  it('Windows NSIS per user (silent updates need no elevation) with the firewall include, macOS dmg and zip, Linux AppImage and deb', () => {
    expect(targets(config.win)).toEqual(['nsis']);
    expect(config.nsis).toMatchObject({ oneClick: true, perMachine: false, createDesktopShortcut: 'always', include: 'app/desktop/build/installer.nsh' });
    const nsh = fs.readFileSync(config.nsis.include, 'utf8');
    expect(nsh).toMatch(/customInstall[\s\S]*\$\{ifNot\} \$\{isUpdated\}[\s\S]*firewall add rule name="\$\{COMANDA_FIREWALL_RULE\}" dir=in action=allow protocol=TCP localport=\$\{COMANDA_PORT\} profile=private/);
    expect(nsh).toMatch(/customUnInstall[\s\S]*\$\{ifNot\} \$\{isUpdated\}[\s\S]*firewall delete rule name="\$\{COMANDA_FIREWALL_RULE\}"/);
    expect(nsh).toContain('!define COMANDA_PORT "8080"');
    expect(targets(config.mac)).toEqual(['dmg', 'zip']);
    expect(targets(config.linux)).toEqual(['AppImage', 'deb']);
  });

  it('icons exist and are PNGs of the sizes the platforms need', () => {
    for (const os of [config.win, config.mac, config.linux]) {
      const png = fs.readFileSync(os.icon);
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(512);
    }
    for (const tray of ['tray.png', 'trayTemplate.png', 'trayTemplate@2x.png']) expect(fs.existsSync(`${config.directories.buildResources}/${tray}`)).toBe(true);
  });

  it('built output only; better-sqlite3 unpacked and rebuilt for Electron outside the project folder', () => {
    expect(config.files).toEqual(expect.arrayContaining(['package.json', 'bin/comanda', 'dist/hub/**', 'dist/electron/**', 'app/web/dist/**', '!node_modules/electron/**']));
    expect(config.files.filter((f: string) => /^(server|sync|printers|app\/desktop)\/\*\*|tsconfig/.test(f))).toEqual([]);
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toContain('node_modules/better-sqlite3/**');
    expect(config.npmRebuild).toBe(false);
    expect(config.beforePack).toBe('./app/desktop/build/native-module.mjs');
    expect(config.afterPack).toBe('./app/desktop/build/native-module.mjs');
  });

  it('fuses: no run-as-Node (the hub runs in a utility process), the app only from its checked asar', () => {
    expect(config.electronFuses).toMatchObject({ runAsNode: false, onlyLoadAppFromAsar: true, enableEmbeddedAsarIntegrityValidation: true, enableNodeOptionsEnvironmentVariable: false, enableNodeCliInspectArguments: false, resetAdHocDarwinSignature: true });
  });

  it('no publish section: the feed is added by bin/desktop-dist.mjs only when COMANDA_UPDATE_FEED_URL is set', () => {
    expect(config.publish).toBeUndefined();
  });

  it('one build: install, start, test and packaging build through bin/build.mjs; Electron runs the built main process', () => {
    expect(pkg.scripts.prepare).toBe('node bin/build.mjs --if-stale');
    expect(pkg.scripts.build).toBe('node bin/build.mjs');
    expect(pkg.scripts.prestart).toMatch(/^node bin\/build\.mjs --if-stale/);
    expect(pkg.scripts.desktop).toBe('node bin/build.mjs --if-stale && electron dist/electron/main.mjs');
    // the compilers are for building only: not production dependencies, so never packaged
    for (const tool of ['tsx', 'esbuild', 'typescript', 'vite']) expect(pkg.dependencies[tool], tool).toBeUndefined();
    // the electron package stays optional, so a failed binary download never fails npm install
    expect(pkg.optionalDependencies.electron).toBeDefined();
    expect(pkg.devDependencies.electron).toBeUndefined();
  });
});
