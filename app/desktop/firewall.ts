/** The Windows Firewall rule that lets tablets in, made by the status window's one click. */
export const RULE_NAME = 'comanda hub (tablets)';

const ps = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * The PowerShell that sets the rule right: the installer's port rule (if any) replaced by one
 * for the program itself (it survives a port change and outranks nothing: see below), Private
 * networks and, when the owner agrees, Public ones; and any block rule Windows added for
 * comanda.exe when someone dismissed its prompt removed (a block rule beats every allow rule).
 */
export function firewallScript(o: { exe: string; port: number; includePublic: boolean }): string {
  const profiles = o.includePublic ? 'Private,Public' : 'Private';
  return [
    `$ErrorActionPreference = 'Stop'`,
    `Get-NetFirewallRule -DisplayName ${ps(RULE_NAME)} -ErrorAction SilentlyContinue | Remove-NetFirewallRule`,
    `Get-NetFirewallApplicationFilter -Program ${ps(o.exe)} -ErrorAction SilentlyContinue | Get-NetFirewallRule | Where-Object { $_.Direction -eq 'Inbound' -and $_.Action -eq 'Block' } | Remove-NetFirewallRule`,
    `New-NetFirewallRule -DisplayName ${ps(RULE_NAME)} -Direction Inbound -Action Allow -Program ${ps(o.exe)} -Protocol TCP -LocalPort ${Number(o.port)} -Profile ${profiles} | Out-Null`,
  ].join('; ');
}

/**
 * The command the app runs: an unelevated PowerShell that starts one elevated PowerShell
 * (the single UAC prompt) running the script, passed base64 (-EncodedCommand: UTF-16LE) so
 * no path or quote in it needs escaping twice, and waits for it.
 */
export function firewallFixCommand(o: { exe: string; port: number; includePublic: boolean }): { file: string; args: string[] } {
  const encoded = Buffer.from(firewallScript(o), 'utf16le').toString('base64');
  const elevate = `$p = Start-Process -FilePath powershell.exe -Verb RunAs -Wait -PassThru -WindowStyle Hidden -ArgumentList '-NoProfile','-NonInteractive','-EncodedCommand','${encoded}'; exit $p.ExitCode`;
  return { file: 'powershell.exe', args: ['-NoProfile', '-NonInteractive', '-Command', elevate] };
}
