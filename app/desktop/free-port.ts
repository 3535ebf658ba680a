import net from 'node:net';

/** Whether nothing listens on the port yet (on every interface, as the hub listens). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host: '0.0.0.0', exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** The first free port after `taken` (a few tries), for "use port N instead". */
export async function nextFreePort(taken: number, tries = 20): Promise<number | null> {
  for (let port = taken + 1; port < Math.min(65536, taken + 1 + tries); port++) {
    if (await portIsFree(port)) return port;
  }
  return null;
}
