import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const config = parse(fs.readFileSync('electron-builder.yml', 'utf8'));
const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const targets = (os: any) => os.target.map((t: any) => (typeof t === 'string' ? t : t.target));

// The packager itself needs Electron's binaries from the internet: this checks its recipe.
describe('electron-builder.yml', () => {
  it('names the app and starts the desktop main process', () => {
    expect(config.appId).toBe('app.comanda.hub');
    expect(config.productName).toBe('comanda');
    expect(config.extraMetadata.main).toBe('app/desktop/electron-main.mjs');
    expect(fs.existsSync(config.extraMetadata.main)).toBe(true);
    // the Electron it packages is the one the app is developed against
    expect(pkg.optionalDependencies.electron.replace(/^\^/, '').split('.')[0]).toBe(String(config.electronVersion).split('.')[0]);
    expect(pkg.dependencies.electron).toBeUndefined();
    expect(pkg.dependencies['electron-updater']).toBeDefined();
  });

  it('Windows NSIS per machine with a desktop shortcut, macOS dmg, Linux AppImage and deb', () => {
    expect(targets(config.win)).toEqual(['nsis']);
    expect(config.nsis).toMatchObject({ oneClick: false, perMachine: true, createDesktopShortcut: 'always' });
    expect(targets(config.mac)).toEqual(['dmg']);
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

  it('better-sqlite3 is unpacked from the asar and native modules are rebuilt for Electron', () => {
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toContain('node_modules/better-sqlite3/**');
    expect(config.npmRebuild).toBe(true);
    expect(config.files).toContain('!node_modules/electron/**');
    for (const f of ['bin/**', 'server/**', 'sync/**', 'app/desktop/**']) expect(config.files).toContain(f);
    // the server starts from the built bundle, checked against the sources and settings it was made from
    for (const f of ['dist/hub/**', 'tsconfig.json', 'printers/**']) expect(config.files).toContain(f);
    expect(pkg.scripts['desktop:dist']).toMatch(/^node bin\/build-hub\.mjs --if-stale && /);
  });

  it('updates come from a generic feed whose URL is set per build', () => {
    expect(config.publish).toEqual([{ provider: 'generic', url: '${env.COMANDA_UPDATE_FEED_URL}', channel: 'latest' }]);
  });

  it('the electron package stays optional, so a failed binary download never fails npm install', () => {
    expect(pkg.optionalDependencies.electron).toBeDefined();
    expect(pkg.devDependencies.electron).toBeUndefined();
    expect(pkg.scripts.desktop).toBe('electron app/desktop/electron-main.mjs');
  });
});
