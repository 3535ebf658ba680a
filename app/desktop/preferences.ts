import fs from 'node:fs';
import path from 'node:path';
import type { AppLike } from './host.ts';

export interface DesktopPrefs {
  /** start with the computer (on by default: a hub that is not running takes no orders) */
  openAtLogin: boolean;
  /** the first start showed how tablets connect (address and QR) */
  tabletHelpShown: boolean;
  /** the port the owner moved the hub to (the status window's fix for a taken port); null: the hub's own */
  port: number | null;
}

const DEFAULTS: DesktopPrefs = { openAtLogin: true, tabletHelpShown: false, port: null };
export const PREFS_FILE = 'desktop.json';

export function readPrefs(userData: string): DesktopPrefs {
  try {
    const raw = JSON.parse(fs.readFileSync(path.join(userData, PREFS_FILE), 'utf8'));
    const flag = (key: keyof DesktopPrefs) => (typeof raw[key] === 'boolean' ? raw[key] : DEFAULTS[key]);
    const port = Number.isInteger(raw.port) && raw.port > 0 && raw.port < 65536 ? (raw.port as number) : null;
    return { openAtLogin: flag('openAtLogin') as boolean, tabletHelpShown: flag('tabletHelpShown') as boolean, port };
  } catch {
    return { ...DEFAULTS };
  }
}

export function writePrefs(userData: string, prefs: DesktopPrefs): void {
  fs.mkdirSync(userData, { recursive: true });
  fs.writeFileSync(path.join(userData, PREFS_FILE), JSON.stringify(prefs, null, 2));
}

/** Where Linux desktops look for programs to start at login (XDG autostart), and what to run. */
export interface LinuxAutostart {
  dir: string;
  exec: string;
}

/**
 * Tells the OS whether to start the app at login. Started that way it stays in the tray
 * (`--hidden`): after a power cut the hub comes back without a window in the way.
 * Electron does this on Windows and macOS only; on Linux an XDG autostart entry does it.
 */
export function applyLoginItem(app: AppLike, prefs: DesktopPrefs, linux: LinuxAutostart | null = null): void {
  app.setLoginItemSettings({ openAtLogin: prefs.openAtLogin, openAsHidden: true, args: ['--hidden'] });
  if (!linux) return;
  const file = path.join(linux.dir, 'comanda.desktop');
  if (!prefs.openAtLogin) {
    fs.rmSync(file, { force: true });
    return;
  }
  fs.mkdirSync(linux.dir, { recursive: true });
  const quoted = /[\s"]/.test(linux.exec) ? `"${linux.exec.replace(/(["\\`$])/g, '\\$1')}"` : linux.exec;
  fs.writeFileSync(file, ['[Desktop Entry]', 'Type=Application', 'Name=comanda', `Exec=${quoted} --hidden`, 'X-GNOME-Autostart-enabled=true', ''].join('\n'));
}
