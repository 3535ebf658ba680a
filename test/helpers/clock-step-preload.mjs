// Preload (`node --import`) that steps a process's wall clock at run time, as NTP or a person
// would: COMANDA_TEST_CLOCK_STEP_FILE names a file holding milliseconds to add to Date.now()
// and to `new Date()`, read again at most every 50 ms (on the monotonic clock, which no step
// moves). Timers and performance.now() are left alone, exactly as a real step leaves them.
import fs from 'node:fs';

const file = process.env.COMANDA_TEST_CLOCK_STEP_FILE;
if (file) {
  const RealDate = Date;
  let shift = 0;
  let readAt = -Infinity;
  const current = () => {
    const m = performance.now();
    if (m - readAt >= 50) {
      readAt = m;
      try {
        shift = Number(fs.readFileSync(file, 'utf8').trim()) || 0;
      } catch {
        // no file yet: no step
      }
    }
    return shift;
  };
  class SteppedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(RealDate.now() + current());
      else super(...args);
    }
    static now() {
      return RealDate.now() + current();
    }
  }
  globalThis.Date = SteppedDate;
}
