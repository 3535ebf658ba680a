/** What a wait may be told besides its condition. */
export interface UntilOptions {
  /**
   * Milliseconds before it gives up (default 10 s). A safety net, never a measured time: keep it
   * under the test's own timeout, or vitest ends the test first and the wait's message is lost.
   */
  timeout?: number;
  /** Asked only on giving up: the state of what was waited on (what the wait still lacked). */
  diagnose?: () => unknown;
  /** Milliseconds between looks (default 50; 0 lets pending I/O run between looks and no more). */
  every?: number;
}

/**
 * The tests' one wait: looks at `cond` until it gives something truthy, and returns that. On
 * giving up it throws `gave up after N s waiting for: WHAT` with whatever `diagnose` reports.
 * An error `cond` throws is not waited out: it fails the wait at once.
 *
 * `what` may be a function (asked on giving up, like `diagnose`) and the third argument a bare
 * timeout: the forms the earlier copies of this helper took.
 */
export async function until<T>(
  what: string | (() => unknown),
  cond: () => T | Promise<T>,
  opts: UntilOptions | number = {},
): Promise<Exclude<Awaited<T>, false | null | undefined | 0 | ''>> {
  const { timeout = 10_000, diagnose, every = 50 } = typeof opts === 'number' ? { timeout: opts } : opts;
  const started = Date.now();
  for (;;) {
    const value = await cond();
    if (value) return value as Exclude<Awaited<T>, false | null | undefined | 0 | ''>;
    if (Date.now() - started > timeout) {
      const said = typeof what === 'string' ? what : await describe(what);
      const state = diagnose ? `\n  what it saw: ${await describe(diagnose)}` : '';
      throw new Error(`gave up after ${((Date.now() - started) / 1000).toFixed(1)} s waiting for: ${said}${state}`);
    }
    await new Promise((r) => (every > 0 ? setTimeout(r, every) : setImmediate(r)));
  }
}

/** A diagnosis as text; one that itself fails says so rather than hiding the wait's message. */
async function describe(fn: () => unknown): Promise<string> {
  try {
    const v = await fn();
    return typeof v === 'string' ? v : JSON.stringify(v);
  } catch (err) {
    return `(could not tell: ${(err as Error)?.message ?? err})`;
  }
}
