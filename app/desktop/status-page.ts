import type { StartFailure } from './supervisor.ts';

/** What stops tablets from using the hub, as the status window and the tray tell it. */
export interface HubProblem {
  reason: StartFailure['reason'] | 'firewall' | 'address_changed' | 'update_failed';
  failure: StartFailure | null;
  /** the hub's last lines on stderr, for a cause it did not name */
  lastOutput: string[];
  /** port_taken: a free port to move to */
  suggestedPort: number | null;
  /** firewall: what the hub found (server/operator/reachability.ts) */
  firewall: { url: string; profile: string | null; detail: string | null; canFix: boolean } | null;
  /** address_changed: the PC's LAN address moved; the QR codes that embed the old one (server/operator/stable-address.ts) */
  addressChange: { from: string; to: string; reprint: { id: string; label: string }[] } | null;
  /** update_failed: the update that did not start, and what the shell did about it (rollback.ts) */
  update: { failed: string; previous: string; rolledBack: boolean; installer: string | null; backup: string | null } | null;
  /** the outcome of the last fix tried from the window */
  note: string | null;
  /** when the next try is due (ms), while the hub waits to restart */
  retryAt: number | null;
}

/** The actions the page's buttons ask for: links the window catches (main.ts), never loaded. */
export const ACTION_SCHEME = 'comanda-action:';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function holderText(f: StartFailure | null): string {
  const h = f?.holder;
  if (!h) return '';
  return ` by ${h.name ?? 'another program'} (process ${h.pid})`;
}

/** One line: the tray's label and the window's heading. */
export function problemTitle(p: HubProblem): string {
  const f = p.failure;
  switch (p.reason) {
    case 'port_taken':
      return `Port ${f?.port ?? ''} is taken${holderText(f)}`;
    case 'data_locked':
      return `The data folder is in use by another comanda hub (process ${f?.holder?.pid ?? '?'})`;
    case 'data_unreadable':
      return 'The data folder cannot be written';
    case 'database_unreadable':
      return 'The database cannot be read';
    case 'disk_full':
      return 'The disk is full';
    case 'firewall':
      return 'Tablets cannot reach the hub';
    case 'address_changed':
      return `The hub's address changed: print ${p.addressChange?.reprint.length ?? 0} QR codes again`;
    case 'update_failed':
      return p.update?.rolledBack ? `The update to ${p.update.failed} did not start: back on ${p.update.previous}` : `The update to ${p.update?.failed ?? '?'} does not start`;
    default:
      return 'The hub does not start';
  }
}

function when(ms: number): string {
  return new Date(ms).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

function button(action: string, label: string, primary = false): string {
  return `<a class="btn${primary ? ' primary' : ''}" href="${ACTION_SCHEME}${escape(action)}">${escape(label)}</a>`;
}

function explanation(p: HubProblem): { text: string; fixes: string[] } {
  const f = p.failure;
  switch (p.reason) {
    case 'port_taken':
      return {
        text: `comanda listens on port ${f?.port} for tablets, but ${f?.holder ? `${escape(f.holder.name ?? 'another program')} (process ${f.holder.pid})` : 'another program'} already uses it. Stop that program, or move comanda to another port: its QR codes and the pairing page then use the new port (print the table QR codes again and pair the screens again).`,
        fixes: [...(p.suggestedPort ? [button(`use-port?port=${p.suggestedPort}`, `Use port ${p.suggestedPort} instead`, true)] : []), button('retry', 'Try again (the port is free now)')],
      };
    case 'data_locked':
      return {
        text: `Another comanda hub (process ${f?.holder?.pid}) is already running with this data folder (${escape(f?.data_dir ?? '')}). Only one hub may use it at a time. Stop the other one (a second copy of the app, or a comanda started by hand), then try again.`,
        fixes: [f?.holder ? button(`stop-other?pid=${f.holder.pid}`, `Stop the other hub (process ${f.holder.pid})`, true) : '', button('retry', 'Try again')].filter(Boolean),
      };
    case 'data_unreadable':
      return { text: `comanda cannot write to its data folder (${escape(f?.data_dir ?? '')}): ${escape(f?.message ?? '')}. Check the folder's permissions, or whether a backup or antivirus program holds it.`, fixes: [button('open-data', 'Open the data folder'), button('retry', 'Try again', true)] };
    case 'database_unreadable':
      return {
        text: f?.backup
          ? `The database file is damaged and cannot be read. The latest backup is from <b>${escape(when(f.backup.at))}</b>. Restoring it brings back everything up to then; what was entered after it is lost. The damaged file is kept aside, not deleted.`
          : 'The database file is damaged and cannot be read, and there is no backup in the backup folder. Contact support with the logs folder.',
        fixes: [...(f?.backup ? [button('restore', `Restore the backup of ${when(f.backup.at)}`, true)] : []), button('open-logs', 'Open logs folder')],
      };
    case 'disk_full':
      return {
        text: `The disk that holds comanda's data (${escape(f?.data_dir ?? '')}) is full${f?.free_bytes !== null && f?.free_bytes !== undefined ? ` (${Math.round(f.free_bytes / 1024)} KB free)` : ''}. comanda cannot save orders on it. Free some space (empty the recycle bin, delete large downloads), then try again.`,
        fixes: [button('open-data', 'Open the data folder'), button('retry', 'Try again', true)],
      };
    case 'firewall':
      return {
        text: `The hub runs, but a request to its own network address (${escape(p.firewall?.url ?? '')}) did not reach it${p.firewall?.profile === 'public' ? ': Windows treats this network as <b>Public</b>, and its firewall blocks tablets there' : ''}${p.firewall?.detail ? ` (${escape(p.firewall.detail)})` : ''}. Tablets on the Wi-Fi cannot connect until the firewall lets comanda in.`,
        fixes: [...(p.firewall?.canFix ? [button('fix-firewall', 'Allow comanda through the firewall (asks for an administrator once)', true), button('fix-firewall?public=1', 'Allow it on Public networks too')] : []), button('recheck', 'Check again')],
      };
    case 'address_changed': {
      const c = p.addressChange;
      return {
        text: `The router gave this PC another network address (${escape(c?.from ?? '')} → ${escape(c?.to ?? '')}). These QR codes carry the old address and no longer open on guests' phones: <b>${escape(c?.reprint.map((r) => r.label).join(', ') ?? '')}</b>. Print them again (Floor → QR sheet), and open the screens again at the new address. So that it does not happen again, reserve the address ${escape(c?.to ?? '')} for this PC in the router (often called "DHCP reservation" or "static lease").`,
        fixes: [button('address-reprinted', 'They are printed again', true)],
      };
    }
    case 'update_failed': {
      const u = p.update;
      if (u?.rolledBack)
        return {
          text: `comanda ${escape(u.failed)} was installed but the hub did not start with it, so comanda went back to ${escape(u.previous)} and put the database back as it was before the update${u.backup ? ` (${escape(u.backup)})` : ''}. ${escape(u.failed)} will not be installed again; a later version will. Send the logs to support.`,
          fixes: [button('dismiss-update', 'OK', true), button('open-logs', 'Open logs folder')],
        };
      return {
        text: `comanda ${escape(u?.failed ?? '')} was installed but the hub does not start with it, and comanda cannot go back to ${escape(u?.previous ?? 'the previous version')} by itself on this computer. To go back: 1. Quit comanda (tray → Quit). 2. Run the installer of ${escape(u?.previous ?? 'the previous version')}${u?.installer ? `, kept at <b>${escape(u.installer)}</b>` : ' (from your support contact: none was kept on this PC)'}. 3. Start comanda: it puts the database back as it was before the update${u?.backup ? ` (from ${escape(u.backup)})` : ''}.`,
        fixes: [...(u?.installer ? [button('open-installers', 'Open the folder with the installer', true)] : []), button('open-logs', 'Open logs folder')],
      };
    }
    default:
      return { text: `The hub stopped before it was ready. Its last words:<pre>${escape(p.lastOutput.slice(-8).join('\n') || (f?.message ?? ''))}</pre>`, fixes: [button('retry', 'Try again', true), button('open-logs', 'Open logs folder')] };
  }
}

/** The status window: what is wrong and the fix, a self-contained page (no script, no remote content). */
export function statusPage(p: HubProblem): string {
  const { text, fixes } = explanation(p);
  const retry = p.retryAt !== null && p.reason !== 'firewall' && p.reason !== 'address_changed' ? `<p class="muted">comanda tries again by itself at ${escape(new Date(p.retryAt).toLocaleTimeString('en-GB'))}.</p>` : '';
  const html = `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>comanda — ${escape(problemTitle(p))}</title>
<style>body{font:15px/1.45 system-ui,sans-serif;margin:28px;color:#222;max-width:620px}h1{font-size:21px;color:#a11}
.btn{display:inline-block;margin:6px 8px 6px 0;padding:9px 14px;border:1px solid #888;border-radius:6px;color:#222;text-decoration:none;background:#f4f4f4}
.btn.primary{background:#1d5fd1;border-color:#1d5fd1;color:#fff}.note{background:#fff6d6;padding:10px;border-radius:6px}.muted{color:#666;font-size:13px}pre{white-space:pre-wrap;font-size:12px;background:#f4f4f4;padding:8px}</style>
</head><body data-reason="${escape(p.reason)}">
<h1>${escape(problemTitle(p))}</h1>
<p>${text}</p>
${p.note ? `<p class="note">${escape(p.note)}</p>` : ''}
<p>${fixes.join('\n')}</p>
${retry}
<p class="muted">${button('open-logs', 'Open logs folder')}</p>
</body></html>`;
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`;
}

/** The page's text, for tests that read the window as a user would. */
export function pageHtml(dataUrl: string): string {
  return decodeURIComponent(dataUrl.slice(dataUrl.indexOf(',') + 1));
}
