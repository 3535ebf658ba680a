/**
 * Fills a text's placeholders: `{name}` with a value, and
 * `{count, plural, one {# booking} other {# bookings}}` with the branch the language's plural
 * rules pick for the number (`=0 {…}` for an exact one; `#` is the number), so no page says
 * "1 bookings" in any language.
 */
export function formatMessage(text: string, vars: Record<string, string | number> | undefined, language: string): string {
  if (!vars) return text;
  return text.replace(PLURAL, (_, name: string, branches: string) => plural(name, branches, vars, language)).replace(/\{(\w+)\}/g, (_, k) => String(vars[k] ?? `{${k}}`));
}

// a plural placeholder: its branches hold plain text with at most `#` and `{name}` placeholders
const PLURAL = /\{(\w+), plural,((?:\s*=?\w+\s*\{[^{}]*(?:\{\w+\}[^{}]*)*\})+)\s*\}/g;
const BRANCH = /\s*(=?\w+)\s*\{([^{}]*(?:\{\w+\}[^{}]*)*)\}/g;

const rules = new Map<string, Intl.PluralRules>();
function plural(name: string, branches: string, vars: Record<string, string | number>, language: string): string {
  const n = Number(vars[name]);
  const forms = new Map([...branches.matchAll(BRANCH)].map((m) => [m[1]!, m[2]!]));
  let r = rules.get(language);
  if (!r) rules.set(language, (r = new Intl.PluralRules(language)));
  const text = forms.get(`=${n}`) ?? forms.get(r.select(n)) ?? forms.get('other') ?? '';
  return text.replace(/#/g, String(vars[name]));
}
