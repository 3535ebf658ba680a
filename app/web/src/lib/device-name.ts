/**
 * A signed-in device as a person names it — "Chrome on Android", "Safari on iPad" — from its
 * user agent. A few rules for the browsers and systems a venue's phones, tablets and PCs run:
 * the order matters, as each browser's string carries its ancestors' names (Edge says Chrome
 * and Safari, Chrome says Safari). null when neither is recognised: the caller says "a browser".
 * (ua-parser-js would do this too, but its current major version is AGPL.)
 */
export function deviceName(ua: string | null | undefined): { browser: string | null; os: string | null } {
  if (!ua) return { browser: null, os: null };
  return { browser: browserOf(ua), os: osOf(ua) };
}

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\bElectron\//, 'comanda app'],
  [/\b(Chrome|HeadlessChrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*Safari\//, 'Safari'],
  [/\b(iPhone|iPad|iPod)\b.*AppleWebKit\//, 'Safari'],
];

function browserOf(ua: string): string | null {
  for (const [re, name] of BROWSERS) if (re.test(ua)) return name;
  return null;
}

function osOf(ua: string): string | null {
  if (/\biPad\b/.test(ua)) return 'iPad';
  if (/\biPhone\b|\biPod\b/.test(ua)) return 'iPhone';
  if (/\bAndroid\b/.test(ua)) return 'Android';
  if (/\bCrOS\b/.test(ua)) return 'ChromeOS';
  if (/\bWindows\b/.test(ua)) return 'Windows';
  // an iPad asks for the desktop site as a Mac: only the server cannot tell them apart
  if (/\bMac OS X\b|\bMacintosh\b/.test(ua)) return 'Mac';
  if (/\bLinux\b/.test(ua)) return 'Linux';
  return null;
}
