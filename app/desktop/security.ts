import type { ShellLike, WebContentsLike, WebPreferences } from './host.ts';

/**
 * Every window of the app: the page is the hub's web dashboard, a web page like any other,
 * so it gets no Node, runs sandboxed and isolated from the preload, which exposes only
 * the few calls in preload.cjs.
 */
export function secureWebPreferences(preload?: string): WebPreferences {
  return {
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInSubFrames: false,
    webviewTag: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    ...(preload ? { preload } : {}),
  };
}

/** Whether a URL is the local hub (same scheme, host and port as the server the window shows). */
export function isHubUrl(url: string, hubOrigin: string): boolean {
  try {
    return new URL(url).origin === new URL(hubOrigin).origin;
  } catch {
    return false;
  }
}

/** What may be handed to the system: web pages and mail links. Never file:, javascript:, custom schemes. */
export function isExternalSafe(url: string): boolean {
  try {
    return ['http:', 'https:', 'mailto:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

/**
 * The app window only ever shows the local hub (and pages it made itself, data: for the
 * tablet QR). A link or window.open to anywhere else opens in the user's browser, never in
 * the app window, where it would run next to the preload's API.
 */
export function guardWebContents(contents: WebContentsLike, isHub: (url: string) => boolean, shell: ShellLike, openInApp: (url: string) => void): void {
  const handOut = (url: string) => {
    if (isExternalSafe(url)) void shell.openExternal(url);
  };
  const onNavigate = (event: { preventDefault(): void }, url: string) => {
    if (isHub(url)) return;
    event.preventDefault();
    handOut(url);
  };
  contents.on('will-navigate', onNavigate);
  contents.on('will-redirect', onNavigate);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isHub(url)) openInApp(url);
    else handOut(url);
    return { action: 'deny' };
  });
  // the dashboard needs no camera, location or notifications permission from the OS
  contents.setPermissionRequestHandler((_permission, callback) => callback(false));
}
