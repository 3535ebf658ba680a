import fs from 'node:fs';
import path from 'node:path';
import { DATA_DIR_MODE, makeDirSync } from '../make-dir.ts';

/**
 * An append-only log file capped in size: past maxBytes it becomes `.1` (the older `.1`
 * becomes `.2`, …) and a new file starts; at most `keep` old files stay. A hub runs for
 * years on a small disk, so its logs must never grow without bound.
 */
export class RotatingLog {
  private size: number;

  constructor(
    readonly file: string,
    private readonly maxBytes = 5 * 1024 * 1024,
    private readonly keep = 3,
  ) {
    makeDirSync(path.dirname(file), DATA_DIR_MODE);
    this.size = fs.existsSync(file) ? fs.statSync(file).size : 0;
  }

  write(text: string | Buffer): void {
    const bytes = typeof text === 'string' ? Buffer.byteLength(text) : text.length;
    if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
    fs.appendFileSync(this.file, text);
    this.size += bytes;
  }

  private rotate(): void {
    fs.rmSync(`${this.file}.${this.keep}`, { force: true });
    for (let i = this.keep - 1; i >= 1; i--) {
      if (fs.existsSync(`${this.file}.${i}`)) fs.renameSync(`${this.file}.${i}`, `${this.file}.${i + 1}`);
    }
    fs.renameSync(this.file, `${this.file}.1`);
    this.size = 0;
  }
}
