import fs from 'node:fs';
import path from 'node:path';

/**
 * An update that does not start is taken back. electron-updater only ever installs forward
 * (it keeps no previous version and has no downgrade), so the shell keeps what a way back
 * needs: the installer of the version it runs (copied from the updater's download, or left
 * there by the NSIS installer itself) and a backup of the database taken just before the update
 * (a newer version's migrations make it unreadable to the older one). Kept in the app's data
 * folder, in `updates.json` beside `installers/<version>/`.
 */
export interface UpdateRecord {
  /** an installed update not yet seen to start: rolled back if it never does */
  trial: { from: string; to: string; backup: string | null; at: number } | null;
  /** the last update that did not start, and what was done about it */
  failed: { version: string; previous: string; rolledBack: boolean; backup: string | null; restored: boolean; at: number; dismissed: boolean } | null;
  /** versions never installed again (one that did not start here) */
  bad: string[];
}

export const UPDATES_FILE = 'updates.json';
export const INSTALLERS_DIR = 'installers';
/** failed starts in a row on a freshly updated version that take it back */
export const ROLLBACK_AFTER_FAILED_STARTS = 3;
/**
 * Causes the venue's PC has, not the update: the status window's fixes apply to them, and the
 * old version would meet them too.
 */
const NOT_THE_UPDATE = new Set(['port_taken', 'data_locked', 'data_unreadable', 'disk_full']);

export type RollbackDecision = { kind: 'none' } | { kind: 'rollback'; installer: string; previous: string } | { kind: 'manual'; installer: string | null; previous: string };

export class UpdateGuard {
  record: UpdateRecord;
  private readonly file: string;
  readonly installersDir: string;

  constructor(
    private readonly userData: string,
    readonly version: string,
    private readonly now: () => number,
  ) {
    this.file = path.join(userData, UPDATES_FILE);
    this.installersDir = path.join(userData, INSTALLERS_DIR);
    this.record = this.read();
  }

  /** running an update that has not started yet */
  get onTrial(): boolean {
    return this.record.trial?.to === this.version;
  }

  /** The kept installer of a version (the NSIS installer leaves its own there too), or null. */
  installerOf(version: string): string | null {
    const dir = path.join(this.installersDir, version);
    try {
      const file = fs.readdirSync(dir).find((f) => /\.(exe|dmg|zip|AppImage|deb|rpm)$/i.test(f));
      return file ? path.join(dir, file) : null;
    } catch {
      return null;
    }
  }

  /** The updater downloaded a version: its installer is kept (the way back to it, once it runs). */
  keepInstaller(version: string, downloaded: string | undefined): void {
    if (!downloaded || !fs.existsSync(downloaded)) return;
    const dir = path.join(this.installersDir, version);
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(downloaded, path.join(dir, path.basename(downloaded)));
  }

  /** Just before the updater installs `to`: the running version is the way back. */
  beforeInstall(to: string, backup: string | null): void {
    this.record.trial = { from: this.version, to, backup, at: this.now() };
    this.write();
  }

  /** A start failed; `failedInRow` counts them since the last ready. What to do about the update. */
  startFailed(failedInRow: number, reason: string | null): RollbackDecision {
    const t = this.record.trial;
    if (!t || t.to !== this.version || failedInRow < ROLLBACK_AFTER_FAILED_STARTS) return { kind: 'none' };
    if (reason && NOT_THE_UPDATE.has(reason)) return { kind: 'none' };
    const installer = this.installerOf(t.from);
    return installer ? { kind: 'rollback', installer, previous: t.from } : { kind: 'manual', installer: null, previous: t.from };
  }

  /** The shell runs the previous version's installer: the next start (as that version) puts the database back. */
  rollingBack(previous: string): void {
    const t = this.record.trial!;
    this.record.failed = { version: t.to, previous, rolledBack: true, backup: t.backup, restored: false, at: this.now(), dismissed: false };
    this.record.bad = [...new Set([...this.record.bad, t.to])];
    this.record.trial = null;
    this.write();
  }

  /** No way back by itself: the owner is told what to do; the trial stays so a manual reinstall still restores. */
  cannotRollBack(previous: string): void {
    const t = this.record.trial!;
    this.record.failed = { version: t.to, previous, rolledBack: false, backup: t.backup, restored: false, at: this.now(), dismissed: false };
    this.record.bad = [...new Set([...this.record.bad, t.to])];
    this.write();
  }

  /**
   * Started as the version an update was taken back to, with the database still the one the
   * failed version may have migrated: the backup to restore before the hub starts, else null.
   */
  pendingRestore(): string | null {
    const f = this.record.failed;
    const back = f && f.previous === this.version && !f.restored ? f : null;
    // a manual way back (the owner ran the old installer) counts the same
    const t = this.record.trial;
    if (!back && t && t.from === this.version && this.record.bad.includes(t.to)) {
      this.record.failed = { version: t.to, previous: t.from, rolledBack: true, backup: t.backup, restored: false, at: this.now(), dismissed: false };
      this.record.trial = null;
      this.write();
      return this.pendingRestore();
    }
    return back?.backup && fs.existsSync(back.backup) ? back.backup : null;
  }

  restored(): void {
    if (this.record.failed) this.record.failed.restored = true;
    this.write();
  }

  /** The hub started on this version: the update stands; installers other than this one and the one before are let go. */
  ready(): void {
    const t = this.record.trial;
    if (t?.to === this.version) {
      this.record.trial = null;
      this.write();
      this.prune([this.version, t.from]);
    }
  }

  dismiss(): void {
    if (this.record.failed) this.record.failed.dismissed = true;
    this.write();
  }

  isBad(version: string): boolean {
    return this.record.bad.includes(version);
  }

  private prune(keep: string[]) {
    try {
      for (const v of fs.readdirSync(this.installersDir)) if (!keep.includes(v)) fs.rmSync(path.join(this.installersDir, v), { recursive: true, force: true });
    } catch {
      // no installers folder yet
    }
  }

  private read(): UpdateRecord {
    try {
      const r = JSON.parse(fs.readFileSync(this.file, 'utf8'));
      return { trial: r.trial ?? null, failed: r.failed ?? null, bad: Array.isArray(r.bad) ? r.bad : [] };
    } catch {
      return { trial: null, failed: null, bad: [] };
    }
  }

  private write() {
    fs.mkdirSync(this.userData, { recursive: true });
    fs.writeFileSync(this.file, JSON.stringify(this.record, null, 2));
  }
}
