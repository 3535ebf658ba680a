import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { de } from '../../app/web/src/i18n/de.ts';
import { en } from '../../app/web/src/i18n/en.ts';
import { screensDe } from '../../app/web/src/i18n/screens/de.ts';
import { screensEn } from '../../app/web/src/i18n/screens/en.ts';
import { screensEs } from '../../app/web/src/i18n/screens/es.ts';
import { screensFr } from '../../app/web/src/i18n/screens/fr.ts';
import { screensIt } from '../../app/web/src/i18n/screens/it.ts';

const SRC = 'app/web/src';

/** The modules an entry reaches through relative imports (the dictionaries themselves aside). */
function reached(entry: string): string[] {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file) || file.includes('/i18n/')) continue;
    seen.add(file);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
      const dep = normalize(join(dirname(file), spec));
      if (existsSync(dep)) stack.push(dep);
    }
  }
  return [...seen];
}

/**
 * The screens and guest pages carry only the screens' dictionaries (the back office's are added
 * by its own entry), so every text they ask for must be there, in all five languages.
 */
describe('the texts the screens and guest pages load', () => {
  const dictionaries = { en: screensEn, de: screensDe, fr: screensFr, es: screensEs, it: screensIt };
  for (const entry of ['guest/main.tsx', 'screens/main.tsx']) {
    it(`${entry}: every key it uses is in the screens' dictionaries`, () => {
      const files = reached(join(SRC, entry));
      expect(files.length).toBeGreaterThan(3);
      const missing: string[] = [];
      for (const file of files) {
        const text = readFileSync(file, 'utf8');
        for (const [, key] of text.matchAll(/\bt\(\s*'([\w.]+)'/g))
          for (const [lang, dict] of Object.entries(dictionaries)) if (!(key in dict)) missing.push(`${file}: ${key} (${lang})`);
        // keys made at runtime (`kds.line.${status}`): their family must exist
        for (const [, prefix] of text.matchAll(/\bt\(\s*`([\w.]+)\$\{/g))
          if (!Object.keys(screensEn).some((k) => k.startsWith(prefix))) missing.push(`${file}: ${prefix}*`);
      }
      expect(missing).toEqual([]);
    });
  }

  it("the built guest and screens pages hold none of the back office's texts", () => {
    const dist = 'app/web/dist';
    // a text of the back office alone, long enough not to appear anywhere by chance
    const only = Object.values(en).filter((v) => v.length > 40 && !Object.values(screensEn).includes(v as never));
    expect(only.length).toBeGreaterThan(10);
    for (const page of ['guest.html', 'screens.html']) {
      const html = readFileSync(join(dist, page), 'utf8');
      const scripts = [...html.matchAll(/(?:src|href)="\/app\/assets\/([\w.-]+\.js)"/g)].map((m) => m[1]);
      expect(scripts.length).toBeGreaterThan(0);
      const code = scripts.map((s) => readFileSync(join(dist, 'assets', s), 'utf8')).join('\n');
      expect(only.filter((v) => code.includes(v)).length, page).toBe(0);
    }
    // and the back office does load them, with the scripts its page names
    const office = [...readFileSync(join(dist, 'index.html'), 'utf8').matchAll(/(?:src|href)="\/app\/assets\/([\w.-]+\.js)"/g)].map((m) => m[1]);
    expect(office.some((f) => readFileSync(join(dist, 'assets', f), 'utf8').includes(only[0]))).toBe(true);
  });

  it("the back office's first load holds English alone; another language is a file fetched for its reader", () => {
    const dist = 'app/web/dist';
    // German texts of the back office that no other language shares, long enough to be its own
    const german = Object.values(de).filter((v) => v.length > 40 && !Object.values(en).includes(v as never));
    expect(german.length).toBeGreaterThan(10);
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    const first = [...html.matchAll(/(?:src|href)="\/app\/assets\/([\w.-]+\.js)"/g)].map((m) => m[1]);
    expect(first.length).toBeGreaterThan(0);
    const code = first.map((s) => readFileSync(join(dist, 'assets', s), 'utf8')).join('\n');
    expect(german.filter((v) => code.includes(v))).toEqual([]);
    expect(code.includes(only(en)[0]!)).toBe(true);
    // and a file of its own carries them all
    const files = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(dist, 'assets', f), 'utf8'));
    expect(files.some((c) => german.every((v) => c.includes(v)))).toBe(true);
  });
});

/** texts of the back office alone (not the screens'), long enough not to appear by chance */
function only(dict: Record<string, string>): string[] {
  return Object.values(dict).filter((v) => v.length > 40 && !Object.values(screensEn).includes(v as never));
}
