import fs from 'node:fs';
import path from 'node:path';
import { Session } from 'node:inspector/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/**
 * Writes a CPU profile of this process's main thread while `fn` runs to `dir` (open it in
 * Chrome's DevTools), when `dir` is given; `top` lines of self time are printed beside it.
 */
export async function profiled<T>(dir: string | undefined, name: string, fn: () => Promise<T>, top = 0): Promise<T> {
  if (!dir) return fn();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}.cpuprofile`);
    fs.writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
    console.log(`  profile: ${file}`);
    if (top > 0) for (const line of selfTimes(profile as Profile, top)) console.log(`    ${line}`);
  }
}

/** The functions with the most self time in a profile, as "share  name  file:line". */
export function selfTimes(profile: Profile, top: number): string[] {
  const byNode = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  samples.forEach((id, i) => byNode.set(id, (byNode.get(id) ?? 0) + (deltas[i] ?? 0)));
  const byFrame = new Map<string, number>();
  let total = 0;
  for (const n of profile.nodes) {
    const t = byNode.get(n.id) ?? 0;
    total += t;
    const { functionName, url, lineNumber } = n.callFrame;
    const where = url ? `${url.replace(/^.*\/(node_modules|server|bench|app)\//, '$1/')}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'}  ${where}`;
    byFrame.set(key, (byFrame.get(key) ?? 0) + t);
  }
  return [...byFrame.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, t]) => `${((t / total) * 100).toFixed(1).padStart(5)} %  ${k}`);
}
