import type { MenuItemModel } from './host.ts';
import type { ServerState } from './supervisor.ts';

export interface TrayState {
  server: ServerState;
  /** where tablets reach the hub (first LAN address) */
  tabletUrl: string | null;
  openAtLogin: boolean;
  /** from the server's status report; null until the first one */
  health: {
    printers: { total: number; online: number; offline: number; needs_attention: number; unknown: number };
    sync: { linked: boolean; connected: boolean; last_error: string | null; resync: boolean };
    backups: { warning: string | null; last_success_at: number | null } | null;
  } | null;
  updateReady: string | null;
  /** what stops the hub, in words (status-page.ts's problemTitle); null when nothing */
  problem: string | null;
  /** a fresh hub's setup code (for finishing setup from another device) */
  setupCode: string | null;
}

export interface TrayActions {
  openDashboard(): void;
  connectTablet(): void;
  toggleOpenAtLogin(): void;
  openLogs(): void;
  showProblem(): void;
  quit(): void;
}

const SERVER_LABEL: Record<ServerState, string> = {
  starting: 'Starting…',
  running: 'Running',
  waiting_to_restart: 'Restarting after a problem…',
  stopping: 'Stopping…',
  stopped: 'Stopped',
};

export function printersLine(h: TrayState['health']): string {
  if (!h) return 'Printers: …';
  const p = h.printers;
  if (p.total === 0) return 'Printers: none set up';
  const trouble = p.offline + p.needs_attention;
  if (trouble === 0 && p.unknown === 0) return `Printers: all ${p.total} ready`;
  const parts = [`${p.online} of ${p.total} ready`];
  if (p.offline) parts.push(`${p.offline} offline`);
  if (p.needs_attention) parts.push(`${p.needs_attention} need attention`);
  return `Printers: ${parts.join(', ')}`;
}

export function syncLine(h: TrayState['health']): string {
  if (!h) return 'Cloud sync: …';
  const s = h.sync;
  if (!s.linked) return 'Cloud sync: not linked';
  if (s.last_error) return 'Cloud sync: problem (see dashboard)';
  if (!s.connected) return 'Cloud sync: offline, changes kept';
  return s.resync ? 'Cloud sync: re-sending everything' : 'Cloud sync: up to date';
}

/** The tray's menu as data: built anew on every change, so the test reads exactly what the user sees. */
export function trayMenu(state: TrayState, actions: TrayActions): MenuItemModel[] {
  const up = state.server === 'running';
  const items: MenuItemModel[] = [
    { id: 'open', label: 'Open dashboard', enabled: up, click: actions.openDashboard },
    { id: 'connect', label: 'Connect a tablet…', enabled: up && state.tabletUrl !== null, click: actions.connectTablet },
    { id: 'sep1', type: 'separator' },
    // a known cause is said in words, not as a state flipping between starting and restarting
    { id: 'server', label: state.problem && state.server !== 'running' ? `Hub not running: ${state.problem}` : `Hub: ${SERVER_LABEL[state.server]}`, enabled: false },
    ...(state.problem ? [{ id: 'problem', label: state.server === 'running' ? `${state.problem}: how to fix…` : 'What is wrong and how to fix it…', click: actions.showProblem }] : []),
    ...(state.setupCode ? [{ id: 'setup', label: `Setup code (for another device): ${state.setupCode}`, enabled: false }] : []),
    { id: 'address', label: state.tabletUrl ? `Address: ${state.tabletUrl}` : 'Address: …', enabled: false },
    { id: 'printers', label: printersLine(state.health), enabled: false },
    { id: 'sync', label: syncLine(state.health), enabled: false },
  ];
  if (state.health?.backups?.warning) items.push({ id: 'backup', label: 'Backup: none in the last 48 h!', enabled: false });
  if (state.updateReady) items.push({ id: 'update', label: `Update ${state.updateReady} installs after service`, enabled: false });
  items.push(
    { id: 'sep2', type: 'separator' },
    { id: 'login', label: 'Start at login', type: 'checkbox', checked: state.openAtLogin, click: actions.toggleOpenAtLogin },
    { id: 'logs', label: 'Open logs folder', click: actions.openLogs },
    { id: 'sep3', type: 'separator' },
    { id: 'quit', label: 'Quit comanda', click: actions.quit },
  );
  return items;
}

/** One word for the tray's tooltip. */
export function trayTooltip(state: TrayState): string {
  const p = state.health?.printers;
  const trouble = (p?.offline ?? 0) + (p?.needs_attention ?? 0) > 0 || Boolean(state.health?.backups?.warning) || Boolean(state.health?.sync.last_error);
  if (state.problem) return `comanda — ${state.problem}`;
  return `comanda — ${SERVER_LABEL[state.server]}${state.server === 'running' && trouble ? ' (needs attention)' : ''}`;
}
