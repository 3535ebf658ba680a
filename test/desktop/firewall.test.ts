import { describe, expect, it } from 'vitest';
import { firewallFixCommand, RULE_NAME } from '../../app/desktop/firewall.ts';
import { parseNetstatListener, parseTasklistName } from '../../server/operator/port-holder.ts';
import { parseNetworkCategory, probeTarget } from '../../server/operator/reachability.ts';

// No Windows here: the command the one-click fix runs is read as Windows would get it.
describe('Windows firewall fix (the generated command)', () => {
  const exe = "C:\\Users\\Anna O'Brien\\AppData\\Local\\Programs\\comanda\\comanda.exe";
  const decode = (args: string[]) => {
    const b64 = /'-EncodedCommand','([A-Za-z0-9+/=]+)'/.exec(args.at(-1)!)![1];
    return Buffer.from(b64, 'base64').toString('utf16le');
  };

  it('asks for elevation once and makes a program rule for Private networks, removing block rules for comanda.exe', () => {
    const c = firewallFixCommand({ exe, port: 8080, includePublic: false });
    expect(c.file).toBe('powershell.exe');
    // one Start-Process -Verb RunAs: one UAC prompt for the whole fix
    expect(c.args.at(-1)!.match(/-Verb RunAs/g)).toHaveLength(1);
    expect(c.args.at(-1)).toContain('-Wait');
    const script = decode(c.args);
    expect(script).toContain(`New-NetFirewallRule -DisplayName '${RULE_NAME}' -Direction Inbound -Action Allow -Program 'C:\\Users\\Anna O''Brien\\AppData\\Local\\Programs\\comanda\\comanda.exe' -Protocol TCP -LocalPort 8080 -Profile Private |`);
    // the block rule a dismissed prompt leaves would beat any allow rule: it goes first
    expect(script).toMatch(/Get-NetFirewallApplicationFilter -Program '.*comanda\.exe'.*Where-Object \{ \$_\.Direction -eq 'Inbound' -and \$_\.Action -eq 'Block' \} \| Remove-NetFirewallRule/);
    expect(script.indexOf('Remove-NetFirewallRule')).toBeLessThan(script.indexOf('New-NetFirewallRule'));
  });

  it('Public networks too only when the owner agrees', () => {
    expect(decode(firewallFixCommand({ exe, port: 8081, includePublic: true }).args)).toContain('-LocalPort 8081 -Profile Private,Public');
  });

  it('reads the network profile, netstat and tasklist as Windows prints them', () => {
    expect(parseNetworkCategory('Private\r\nPublic\r\n')).toBe('public');
    expect(parseNetworkCategory('Private\r\n')).toBe('private');
    expect(parseNetworkCategory('DomainAuthenticated\r\n')).toBe('domain');
    const netstat = `\r\nActive Connections\r\n\r\n  Proto  Local Address          Foreign Address        State           PID\r\n  TCP    0.0.0.0:135            0.0.0.0:0              LISTENING       1024\r\n  TCP    0.0.0.0:8080           0.0.0.0:0              LISTENING       4321\r\n  TCP    192.168.1.20:8080      192.168.1.31:51515     ESTABLISHED     4321\r\n`;
    expect(parseNetstatListener(netstat, 8080)).toBe(4321);
    expect(parseNetstatListener(netstat, 9090)).toBeNull();
    expect(parseTasklistName('"Skype.exe","4321","Console","1","120,000 K"\r\n')).toBe('Skype.exe');
  });

  it('tests the LAN address tablets use, else a plain-http public URL', () => {
    expect(probeTarget(['http://192.168.1.20:8080', 'http://127.0.0.1:8080'], 'http://192.168.1.20:8080')).toBe('http://192.168.1.20:8080');
    expect(probeTarget(['http://127.0.0.1:8080'], 'http://10.0.0.5:8080')).toBe('http://10.0.0.5:8080');
    expect(probeTarget(['http://127.0.0.1:8080'], 'https://cloud.example')).toBeNull();
  });
});
