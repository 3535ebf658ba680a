import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** The process listening on a TCP port, as far as the OS tells us (null when it does not). */
export interface PortHolder {
  pid: number;
  name: string | null;
}

/**
 * Who listens on a port, so "port 8080 is taken" can say by what. Linux reads /proc (no tool
 * needed); macOS asks lsof; Windows asks netstat and tasklist. Best effort: another user's
 * process may be hidden from us, and then the answer is null, never a guess.
 */
export function portHolder(port: number, platform: NodeJS.Platform = process.platform): PortHolder | null {
  try {
    if (platform === 'linux') return linuxHolder(port);
    if (platform === 'win32') {
      const pid = parseNetstatListener(run('netstat', ['-ano', '-p', 'tcp']), port);
      if (pid === null) return null;
      return { pid, name: parseTasklistName(run('tasklist', ['/FI', `PID eq ${pid}`, '/FO', 'CSV', '/NH'])) };
    }
    return parseLsof(run('lsof', ['-nP', `-iTCP:${port}`, '-sTCP:LISTEN', '-Fpc']));
  } catch {
    return null;
  }
}

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8', timeout: 3000, stdio: ['ignore', 'pipe', 'ignore'], windowsHide: true });

/** `netstat -ano -p tcp`: the pid of the line LISTENING on :port. */
export function parseNetstatListener(output: string, port: number): number | null {
  for (const line of output.split(/\r?\n/)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length < 5 || cols[0].toUpperCase() !== 'TCP' || cols[3].toUpperCase() !== 'LISTENING') continue;
    if (cols[1].endsWith(`:${port}`)) return Number(cols[4]);
  }
  return null;
}

/** `tasklist /FO CSV /NH`: "name.exe","1234",… */
export function parseTasklistName(output: string): string | null {
  const m = /^"([^"]+)"/m.exec(output.trim());
  return m ? m[1] : null;
}

/** `lsof -Fpc`: p<pid> then c<command>. */
export function parseLsof(output: string): PortHolder | null {
  const pid = /^p(\d+)$/m.exec(output);
  if (!pid) return null;
  return { pid: Number(pid[1]), name: /^c(.+)$/m.exec(output)?.[1] ?? null };
}

function linuxHolder(port: number): PortHolder | null {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = fs.readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; state 0A is LISTEN; column 9 the socket's inode
      if (cols.length > 9 && cols[1].endsWith(`:${hexPort}`) && cols[3] === '0A') inodes.add(cols[9]);
    }
  }
  if (!inodes.size) return null;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const m = /^socket:\[(\d+)\]$/.exec(target);
      if (m && inodes.has(m[1])) {
        let name: string | null = null;
        try {
          name = fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() || null;
        } catch {}
        return { pid: Number(pid), name };
      }
    }
  }
  return null;
}
