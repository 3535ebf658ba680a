import type { BenchContext } from './scenario.ts';
import { percentile } from './sync-fixtures.ts';

/**
 * Group commit's rhythm under the load: how many commits, how far apart. A request that
 * arrives while a batch runs waits for that batch, the read of the next requests and its own
 * batch, so its latency is about one commit-to-commit interval per batch it spans, and the
 * p99 follows the slow intervals (see bench/README.md, the order path).
 */
export function observeCommits(ctx: BenchContext): () => string[] {
  const at: number[] = [];
  const off = ctx.services.tx.onCommit(() => at.push(performance.now()));
  return () => {
    off();
    if (at.length < 3) return ['commits: too few to describe'];
    const gaps = at.slice(1).map((t, i) => t - at[i]);
    const ms = (x: number) => x.toFixed(1);
    const seconds = (at[at.length - 1] - at[0]) / 1000;
    return [
      `commits: ${at.length} (${(at.length / seconds).toFixed(0)}/s), commit to commit p50 ${ms(percentile(gaps, 50))} ms, p90 ${ms(percentile(gaps, 90))} ms, p99 ${ms(percentile(gaps, 99))} ms`,
    ];
  };
}
