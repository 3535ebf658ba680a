import type { UpdaterLike } from './host.ts';
import { isQuietTime, type ServiceHours } from './update-timing.ts';

export interface UpdatePolicyOptions {
  updater: UpdaterLike;
  /** overrides the feed built into the app (electron-builder.yml's generic publish URL) */
  feedUrl: string | null;
  isOnline(): boolean;
  /** the venue's opening hours, from the server's last status report */
  hours(): ServiceHours | null;
  now(): number;
  /** measures the time between checks (a wall clock stepped back held checks off for the step); now() when not given */
  monotonic?(): number;
  /** stops the server gracefully, then the updater restarts the app into the new version */
  install(): Promise<void>;
  /**
   * the hub keeps failing to start: a downloaded update then installs at once (it may be the
   * fix, and there is no service to disturb), whatever the hour
   */
  hubBroken?(): boolean;
  log(message: string, extra?: unknown): void;
  checkEveryMs?: number;
  /** a version never to install (one that did not start on this PC and was taken back: rollback.ts) */
  skip?(version: string): boolean;
}

/**
 * When the app looks for and applies updates. It looks only when online (a venue's line
 * is often down; a failed check every minute helps nobody), at most every few hours;
 * electron-updater downloads in the background; the new version is installed only at a
 * quiet time, never during service. tick() is called every minute by the app.
 */
export class UpdatePolicy {
  /** on the monotonic clock */
  lastCheckAt: number | null = null;
  checking = false;
  downloaded: string | null = null;
  installing = false;
  private readonly checkEveryMs: number;

  constructor(private readonly o: UpdatePolicyOptions) {
    this.checkEveryMs = o.checkEveryMs ?? 6 * 3600_000;
    o.updater.autoDownload = true;
    // an install when the owner quits mid-service would be a restart during service
    o.updater.autoInstallOnAppQuit = false;
    if (o.feedUrl) o.updater.setFeedURL({ provider: 'generic', url: o.feedUrl });
    o.updater.on('update-downloaded', (info) => {
      this.downloaded = info.version;
      o.log('update downloaded; waiting for a quiet time', { version: info.version });
    });
    o.updater.on('error', (err) => o.log('update check failed', { error: err.message }));
  }

  /** What this tick did: 'install', 'check' or 'nothing'. */
  async tick(): Promise<'install' | 'check' | 'nothing'> {
    const now = this.o.now();
    const broken = this.o.hubBroken?.() ?? false;
    if (this.downloaded && this.o.skip?.(this.downloaded)) {
      this.o.log('not installing an update that did not start here before', { version: this.downloaded });
      this.downloaded = null;
    }
    if (this.downloaded && !this.installing && (broken || isQuietTime(now, this.o.hours()))) {
      this.installing = true;
      this.o.log(broken ? 'installing update now: the hub does not start' : 'installing update', { version: this.downloaded });
      await this.o.install();
      return 'install';
    }
    if (this.downloaded || this.checking) return 'nothing';
    const mono = this.o.monotonic?.() ?? now;
    if (this.lastCheckAt !== null && mono - this.lastCheckAt < this.checkEveryMs) return 'nothing';
    if (!this.o.isOnline()) return 'nothing';
    this.lastCheckAt = mono;
    this.checking = true;
    try {
      await this.o.updater.checkForUpdates();
    } catch (err: any) {
      this.o.log('update check failed', { error: err?.message ?? String(err) });
    } finally {
      this.checking = false;
    }
    return 'check';
  }
}
