import { signal } from '@preact/signals';

/**
 * A staff device's (or an open guest page's) two homes (docs/contributors/two-homes.md): the hub, which served this page,
 * and the linked cloud. Requests and /realtime go to the hub while it answers; once it has been
 * silent for FALLBACK_AFTER_MS and the cloud answers, they go to the cloud; they come back when
 * the hub answers again *and* says it has caught up with the cloud. `api()` and the live feed
 * ask here where to go; this module calls the homes with fetch itself (never through `api()`).
 */
export type HomeName = 'hub' | 'cloud';

/** Where the device works now. */
export const home = signal<HomeName>('hub');

/** How long the hub must stay silent before the device moves to the cloud. */
export const FALLBACK_AFTER_MS = 3_000;
const PROBE_HUB_MS = 1_000;
const RETURN_PROBE_MS = 2_000;
// a cloud that does not answer within this is as good as silent: the next probe asks again
const CLOUD_ANSWER_MS = 5_000;
// the hub's answer about the cloud, asked again this often while it answers (a new link)
const LEARN_EVERY_MS = 60_000;
// a cloud pass lives 15 minutes: renewed well before
const PASS_EVERY_MS = 5 * 60_000;
const STORE = 'comanda.homes';

interface Stored {
  cloudUrl: string | null;
  pass: string | null;
  cloudToken: string | null;
}

/** a guest's page (a QR menu) has no credential: its routes are public, its token in the path */
type Credential = { kind: 'key'; key: string } | { kind: 'session' } | { kind: 'guest' };

let credential: Credential | null = null;
let cloudUrl: string | null = null;
let pass: string | null = null;
/** the session opened on the cloud with the pass (a tablet), sent as X-Session-Token */
let cloudToken: string | null = null;
let silentSince: number | null = null;
let probe: number | undefined;
let returning: number | undefined;
/** a return probe under way (the cloud's answer may take its time): the next one waits for it */
let askingReturn = false;
let switching: Promise<void> | null = null;
const switchListeners = new Set<(to: HomeName) => void>();

const load = (): Stored => {
  try {
    return { cloudUrl: null, pass: null, cloudToken: null, ...(JSON.parse(sessionStorage.getItem(STORE) ?? '{}') as Partial<Stored>) };
  } catch {
    return { cloudUrl: null, pass: null, cloudToken: null };
  }
};
// the pass and the cloud's session token live with this tab only (never localStorage, never the screen)
const save = () => sessionStorage.setItem(STORE, JSON.stringify({ cloudUrl, pass, cloudToken } satisfies Stored));

/** Called when the device moves: the live feed reconnects to the new home and views reload. */
export const onHomeSwitch = (fn: (to: HomeName) => void) => {
  switchListeners.add(fn);
  return () => switchListeners.delete(fn);
};

/** The origin requests go to: '' (this page's, the hub) or the cloud's. */
export const baseUrl = (at: HomeName = home.value): string => (at === 'cloud' && cloudUrl ? cloudUrl.replace(/\/$/, '') : '');

/** The /realtime address of the current home. */
export function realtimeUrl(): string {
  const base = baseUrl();
  if (!base) return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/realtime`;
  return `${base.replace(/^http/, 'ws')}/realtime`;
}

/** How the feed signs in on the cloud: a session by its token (a cookie does not cross). */
export const cloudAuth = (): Record<string, unknown> | null => (home.value === 'cloud' && cloudToken ? { type: 'auth', session_token: cloudToken } : null);

/** Headers a request carries on the cloud in place of the hub's cookie (none on the hub). */
export function cloudHeaders(at: HomeName = home.value): Record<string, string> | null {
  if (at !== 'cloud') return null;
  if (credential?.kind === 'key') return { 'X-API-Key': credential.key };
  return cloudToken ? { 'X-Session-Token': cloudToken } : {};
}

/**
 * Starts knowing two homes: a paired screen with its key, a tablet's PIN session (which then
 * keeps a cloud pass, renewed while the hub answers), a guest's page (public routes: nothing to
 * carry across). Without a linked cloud nothing changes.
 */
export function startHomes(c: Credential): void {
  if (credential) return;
  credential = c;
  ({ cloudUrl, pass, cloudToken } = load());
  void learn();
  window.setInterval(() => home.value === 'hub' && void learn(), LEARN_EVERY_MS);
  if (c.kind === 'session') window.setInterval(() => home.value === 'hub' && void renewPass(), PASS_EVERY_MS);
}

// a guest's page may not read the staff answer: it asks the public one (only the cloud's origin)
const homesPath = () => (credential?.kind === 'guest' ? '/public/homes' : '/v1/homes');
const hubHeaders = (): Record<string, string> => ({ Accept: 'application/json', ...(credential?.kind === 'key' ? { 'X-API-Key': credential.key } : {}) });

async function learn(): Promise<void> {
  try {
    const res = await fetch(homesPath(), { headers: hubHeaders(), credentials: 'same-origin' });
    if (!res.ok) return;
    const h = (await res.json()) as { cloud_url: string | null };
    cloudUrl = h.cloud_url;
    save();
    if (cloudUrl && credential?.kind === 'session') await renewPass();
  } catch {
    hubSilent();
  }
}

async function renewPass(): Promise<void> {
  if (!cloudUrl) return;
  try {
    const csrf = /(?:^|;\s*)comanda_csrf=([^;]*)/.exec(document.cookie);
    const res = await fetch('/v1/auth/cloud_pass', {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'X-CSRF-Token': csrf ? decodeURIComponent(csrf[1]) : '' },
      credentials: 'same-origin',
      body: '{}',
    });
    if (res.ok) {
      pass = ((await res.json()) as { pass: string }).pass;
      save();
    }
  } catch {
    hubSilent();
  }
}

/** The hub answered a request: it is not silent. */
export function hubAnswered(): void {
  if (home.value !== 'hub') return;
  silentSince = null;
  clearInterval(probe);
  probe = undefined;
}

/**
 * A request to the hub, or its live socket, found no answer. The hub is probed every second
 * from then on; silent for FALLBACK_AFTER_MS with a cloud to go to, the device moves there.
 */
export function hubSilent(): void {
  if (home.value !== 'hub' || !credential) return;
  silentSince ??= Date.now();
  if (Date.now() - silentSince >= FALLBACK_AFTER_MS) void moveToCloud();
  probe ??= window.setInterval(async () => {
    try {
      const res = await fetch(homesPath(), { headers: hubHeaders(), credentials: 'same-origin', cache: 'no-store', signal: AbortSignal.timeout(PROBE_HUB_MS * 2) });
      if (res.status < 500) return hubAnswered();
    } catch {
      // silent still
    }
    if (silentSince !== null && Date.now() - silentSince >= FALLBACK_AFTER_MS) void moveToCloud();
  }, PROBE_HUB_MS);
}

/**
 * Moves to the cloud once it answers with this device's credential; returns when settled
 * either way. One attempt at a time: callers that come while one is under way share it (the
 * promise is only remembered, and forgotten, around a real attempt, so one that settles at
 * once, the device being on the cloud already, never leaves a settled promise behind that
 * would make every later outage share it and never move).
 */
export function moveToCloud(): Promise<void> {
  if (!switching) switching = tryCloud().finally(() => (switching = null));
  return switching;
}

/**
 * Signs this device in on the cloud if it is not yet: a tablet trades its pass for a session
 * there (a screen's key is good there as it is). false: nothing to sign in with now. Throws
 * when the cloud does not answer.
 */
export async function cloudSignIn(): Promise<boolean> {
  if (!cloudUrl || !credential) return false;
  if (credential.kind !== 'session' || cloudToken) return true;
  if (!pass) return false;
  const res = await fetch(`${cloudUrl.replace(/\/$/, '')}/v1/auth/cloud_pass/redeem`, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    credentials: 'omit',
    body: JSON.stringify({ pass }),
    signal: AbortSignal.timeout(CLOUD_ANSWER_MS),
  });
  // a pass works once: refused, it is spent (or was never good). A 5xx or a rate limit is
  // the cloud's trouble, not the pass's: it is kept for the next try (had the cloud spent
  // it meanwhile, that try is refused and drops it)
  if (!res.ok) {
    if (res.status < 500 && res.status !== 429) {
      pass = null;
      save();
    }
    return false;
  }
  pass = null;
  cloudToken = ((await res.json()) as { token: string }).token;
  save();
  // traded from the hub (a write to settle there, below): the next outage needs a pass of its own
  if (home.value === 'hub') void renewPass();
  return true;
}

/** The cloud refused this device's session (expired, signed out there): the next sign-in trades a new pass. */
export function forgetCloudSession(): void {
  cloudToken = null;
  save();
}

async function tryCloud(): Promise<void> {
  if (!cloudUrl || home.value === 'cloud') return;
  const base = cloudUrl.replace(/\/$/, '');
  try {
    if (!(await cloudSignIn())) return;
    const headers: Record<string, string> = { Accept: 'application/json', ...(credential?.kind === 'key' ? { 'X-API-Key': credential.key } : cloudToken ? { 'X-Session-Token': cloudToken } : {}) };
    const res = await fetch(`${base}${homesPath()}`, { headers, credentials: 'omit', signal: AbortSignal.timeout(CLOUD_ANSWER_MS) });
    if (!res.ok) {
      if (res.status === 401) cloudToken = null;
      return;
    }
    // the hub may have answered while the cloud was asked: it stays home
    if (silentSince === null) return;
    clearInterval(probe);
    probe = undefined;
    switchTo('cloud');
    returning = window.setInterval(() => void tryReturn(), RETURN_PROBE_MS);
  } catch {
    // the cloud does not answer either (or too slowly: a silent line): stay, offline, and ask again on the next probe
  }
}

/**
 * On the cloud: back to the hub once it answers and has pulled what the cloud took meanwhile,
 * or, not caught up, once the cloud no longer serves this device (no answer: the internet went
 * while the hub PC restarted, so the hub cannot catch up and says so; or a refusal: the device's
 * key or session is gone there). Nothing newer is then within the device's reach, and waiting
 * would keep it offline beside a hub that answers.
 */
async function tryReturn(): Promise<void> {
  if (askingReturn) return;
  askingReturn = true;
  try {
    const res = await fetch(homesPath(), { headers: hubHeaders(), credentials: 'same-origin', cache: 'no-store', signal: AbortSignal.timeout(RETURN_PROBE_MS) });
    if (!res.ok) return;
    const h = (await res.json()) as { hub_caught_up: boolean | null };
    if (!h.hub_caught_up && (await cloudServes())) return;
    clearInterval(returning);
    returning = undefined;
    silentSince = null;
    switchTo('hub');
    if (credential?.kind === 'session') void renewPass();
  } catch {
    // still silent
  } finally {
    askingReturn = false;
  }
}

/** Whether the cloud still serves this device: it answers its credential (a rate limit is an answer). */
async function cloudServes(): Promise<boolean> {
  if (!cloudUrl) return false;
  try {
    const res = await fetch(`${cloudUrl.replace(/\/$/, '')}${homesPath()}`, { headers: { Accept: 'application/json', ...cloudHeaders() }, credentials: 'omit', cache: 'no-store', signal: AbortSignal.timeout(RETURN_PROBE_MS) });
    return res.ok || res.status === 429;
  } catch {
    return false;
  }
}

function switchTo(to: HomeName): void {
  home.value = to;
  for (const l of switchListeners) l(to);
}
