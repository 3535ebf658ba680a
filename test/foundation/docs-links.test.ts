import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The docs are read by people without a network: every link in a Markdown file of the
 * repository points at a file of the repository (and, with `#…`, at a heading in it), never
 * outside it; and each reader's index lists every page in its folder.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const SKIP = new Set(['node_modules', 'dist', '.git', '.tmp', 'release']);

function markdownFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (SKIP.has(e.name)) return [];
    const full = path.join(dir, e.name);
    return e.isDirectory() ? markdownFiles(full) : e.name.endsWith('.md') ? [full] : [];
  });
}

/** The text outside code blocks and inline code (where a link is only an example). */
const prose = (md: string) => md.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

const links = (md: string) => [...prose(md).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(md).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = m[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

const files = markdownFiles(ROOT);

describe('links in the docs', () => {
  it('finds the docs', () => {
    expect(files.map((f) => path.relative(ROOT, f))).toEqual(expect.arrayContaining(['README.md', 'docs/operators/README.md', 'docs/operators/first-day.md']));
  });

  it('every link stays in the repository and reaches a file (and heading) that exists', () => {
    const broken: string[] = [];
    for (const file of files) {
      for (const link of links(fs.readFileSync(file, 'utf8'))) {
        const where = `${path.relative(ROOT, file)}: ${link}`;
        if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(link)) {
          broken.push(`${where} (outside the repository)`);
          continue;
        }
        const [target, anchor] = link.split('#');
        const to = target ? path.resolve(path.dirname(file), decodeURIComponent(target)) : file;
        if (!to.startsWith(ROOT + path.sep) || !fs.existsSync(to)) {
          broken.push(`${where} (no such file)`);
          continue;
        }
        if (anchor && to.endsWith('.md') && !anchors(fs.readFileSync(to, 'utf8')).has(anchor)) broken.push(`${where} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("each reader's index lists every page in its folder", () => {
    for (const dir of ['docs/operators', 'docs/integrators']) {
      const index = fs.readFileSync(path.join(ROOT, dir, 'README.md'), 'utf8');
      const listed = new Set(links(index).map((l) => l.split('#')[0]));
      const pages = fs.readdirSync(path.join(ROOT, dir)).filter((f) => f.endsWith('.md') && f !== 'README.md');
      expect(pages.filter((p) => !listed.has(p)), dir).toEqual([]);
    }
  });

  it('the first-day walk and its reference link to each other', () => {
    const read = (f: string) => links(fs.readFileSync(path.join(ROOT, 'docs/operators', f), 'utf8')).map((l) => l.split('#')[0]);
    expect(read('first-day.md')).toContain('first-day-reference.md');
    expect(read('first-day-reference.md')).toContain('first-day.md');
  });
});
