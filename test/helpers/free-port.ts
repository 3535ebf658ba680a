import fs from 'node:fs';
import net from 'node:net';

/** Where the kernel picks the local ports of outgoing connections (Linux; the usual default elsewhere). */
function ephemeralRange(): [number, number] {
  try {
    const [lo, hi] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (lo > 0 && hi >= lo) return [lo, hi];
  } catch {
    // not Linux
  }
  return [49152, 65535];
}

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });

/**
 * A loopback port nobody listens on right now, for a process started next. It is taken below
 * the ephemeral range: a port the kernel hands out (listen on 0) is also one it hands to the
 * next outgoing connection (to PostgreSQL, between hub and cloud), and a process started a
 * moment later on it then failed with EADDRINUSE.
 */
export async function freePort(): Promise<number> {
  const [lo] = ephemeralRange();
  const from = Math.max(10_000, lo - 12_000);
  if (lo - from < 1_000) return kernelPort();
  for (let i = 0; i < 100; i++) {
    const port = from + Math.floor(Math.random() * (lo - from));
    if (await canListen(port)) return port;
  }
  return kernelPort();
}

function kernelPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}
