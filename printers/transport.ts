import type { StatusReading } from './status.ts';
import { sendTcp } from './transports/tcp.ts';
import { sendVirtual } from './transports/virtual.ts';

/**
 * How the hub reaches a printer: raw TCP (port 9100, "JetDirect"), or nowhere (`virtual`: its
 * jobs are kept to be previewed, nothing is sent). USB and serial printers add a variant here
 * and a module under transports/.
 */
export type TransportConfig = { type: 'tcp'; host: string; port: number } | { type: 'virtual' };

export { DEFAULT_SEND_OPTIONS, type SendOptions } from './send-options.ts';
import type { SendOptions } from './send-options.ts';

export { PrintError, SendCancelled } from './send-error.ts';

export async function send(transport: TransportConfig, bytes: Buffer, opts: SendOptions): Promise<StatusReading> {
  switch (transport.type) {
    case 'tcp':
      return sendTcp(transport, bytes, opts);
    case 'virtual':
      return sendVirtual(opts);
  }
}

export function describeTransport(t: TransportConfig): string {
  if (t.type === 'virtual') return 'virtual (no paper)';
  return `tcp://${t.host.includes(':') ? `[${t.host}]` : t.host}:${t.port}`;
}
