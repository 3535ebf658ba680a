import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The server's imports only point down (docs/contributors/architecture.md): a lower layer never
// reaches into routes or features, and no two files import each other, even through types.
const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCES = ['server', 'sync', 'printers'];
const LOWER = ['server/model/', 'server/domain/', 'server/realtime/', 'server/http/', 'server/operator/', 'server/db/', 'server/auth/', 'server/presenters/', 'server/logger.ts'];
const UPPER = ['server/api/', 'server/features/'];

function walk(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : walk(rel);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [rel] : [];
  });
}

/** Every relative import of a file (values, types and side effects alike), as repo paths. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const specs = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'|^\s*import\s+'(\.[^']+)'|import\('(\.[^']+)'\)/gms)].map((m) => m[1] ?? m[2] ?? m[3]);
  return specs.map((s) => path.posix.normalize(path.posix.join(path.posix.dirname(file), s)));
}

const files = SOURCES.flatMap(walk);
const graph = new Map(files.map((f) => [f, importsOf(f).filter((t) => files.includes(t))]));

describe('layers', () => {
  it('finds the source files and their imports', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(graph.get('server/server.ts')).toContain('server/api/routes.ts');
  });

  it('no lower layer imports from server/api or server/features', () => {
    const upward = [...graph].flatMap(([from, to]) =>
      LOWER.some((l) => from.startsWith(l)) ? to.filter((t) => UPPER.some((u) => t.startsWith(u))).map((t) => `${from} → ${t}`) : [],
    );
    expect(upward).toEqual([]);
  });

  // Folders too: one may stand on another, never both on each other (issue 46). model/ is the
  // leaf every layer stands on: vocabularies, state machines and pure calculations.
  const FOLDERS = ['db', 'domain', 'presenters', 'http', 'realtime', 'api', 'model', 'operator', 'auth', 'features', 'cli'];
  const folderOf = (f: string) => (f.startsWith('server/') && f.split('/').length > 2 ? f.split('/')[1] : null);

  it('no two server folders import each other both ways', () => {
    const edges = new Map<string, string>();
    for (const [from, to] of graph) {
      for (const t of to) {
        const a = folderOf(from);
        const b = folderOf(t);
        if (a && b && a !== b && FOLDERS.includes(a) && FOLDERS.includes(b)) edges.set(`${a} → ${b}`, `${from} → ${t}`);
      }
    }
    const bothWays = [...edges.keys()]
      .filter((e) => {
        const [a, b] = e.split(' → ');
        return a < b && edges.has(`${b} → ${a}`);
      })
      .map((e) => {
        const [a, b] = e.split(' → ');
        return `${edges.get(e)} and ${edges.get(`${b} → ${a}`)}`;
      });
    expect(bothWays).toEqual([]);
  });

  it('server/model imports nothing of the server but itself', () => {
    const out = [...graph].flatMap(([from, to]) => (from.startsWith('server/model/') ? to.filter((t) => t.startsWith('server/') && !t.startsWith('server/model/')).map((t) => `${from} → ${t}`) : []));
    expect(out).toEqual([]);
  });

  it('no import circle', () => {
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (f: string) => {
      state.set(f, 'open');
      stack.push(f);
      for (const t of graph.get(f) ?? []) {
        if (state.get(t) === 'open') circles.push([...stack.slice(stack.indexOf(t)), t].join(' → '));
        else if (!state.has(t)) visit(t);
      }
      stack.pop();
      state.set(f, 'done');
    };
    for (const f of files) if (!state.has(f)) visit(f);
    expect(circles).toEqual([]);
  });
});
