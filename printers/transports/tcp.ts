import net from 'node:net';
import { DLE_EOT, interpretStatus, type StatusReading } from '../status.ts';
import { PrintError, SendCancelled } from '../send-error.ts';
import type { SendOptions } from '../send-options.ts';

/**
 * One print over raw TCP: connect, read the real-time status, write the document, half-close
 * and wait for the printer to close. Resolves only once every byte was flushed and the
 * connection ended without an error; anything else rejects with a PrintError.
 */
export function sendTcp(target: { host: string; port: number }, bytes: Buffer, opts: SendOptions): Promise<StatusReading> {
  return new Promise((resolve, reject) => {
    // no Nagle: the 3-byte status query must not wait for the ACK of anything before it
    const socket = net.connect({ host: target.host, port: target.port, noDelay: true });
    let phase: 'connect' | 'status' | 'ready' | 'write' | 'closing' | 'done' = 'connect';
    let reading: StatusReading = { state: 'online', detail: null };
    let received = Buffer.alloc(0);
    let timer: NodeJS.Timeout | undefined;

    const arm = (ms: number, what: string) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (phase === 'closing') {
          // Some printers keep port 9100 open after the job; every byte was already flushed.
          finish(null);
          return;
        }
        fail(new PrintError('offline', `${what} timed out after ${ms} ms`, phase === 'write'));
      }, ms);
    };
    const finish = (err: PrintError | null) => {
      if (phase === 'done') return;
      phase = 'done';
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve(reading);
    };
    const fail = (err: PrintError) => finish(err);

    const writeDocument = async () => {
      phase = 'ready';
      if (opts.beforeWrite) {
        clearTimeout(timer);
        let go = false;
        try {
          go = await opts.beforeWrite();
        } catch {
          go = false;
        }
        // the socket may have died while we waited
        if ((phase as string) === 'done') return;
        if (!go) return fail(new SendCancelled());
      }
      phase = 'write';
      arm(opts.writeTimeoutMs, 'write');
      socket.end(bytes, () => {
        if (phase !== 'write') return;
        phase = 'closing';
        arm(opts.closeTimeoutMs, 'close');
      });
    };

    arm(opts.connectTimeoutMs, 'connect');
    socket.on('connect', () => {
      if (!opts.queryStatus) return void writeDocument();
      phase = 'status';
      arm(opts.statusTimeoutMs, 'status query');
      socket.write(Buffer.concat([DLE_EOT(1), DLE_EOT(2), DLE_EOT(4)]));
    });
    socket.on('data', (chunk: Buffer) => {
      if (phase !== 'status') return; // later bytes are the printer's own reports; ignored
      received = Buffer.concat([received, chunk]);
      if (received.length < 3) return;
      reading = interpretStatus(received[0], received[1], received[2]);
      if (reading.state !== 'online') return fail(new PrintError(reading.state, reading.detail ?? reading.state, false));
      void writeDocument();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      const written = phase === 'write' || phase === 'closing';
      fail(new PrintError(written ? 'error' : 'offline', `${err.code ?? 'socket error'}: ${err.message}`, written));
    });
    socket.on('close', (hadError) => {
      // Clean close after our last byte was flushed: the printer has the whole document.
      if ((phase === 'closing' || (phase === 'write' && socket.writableFinished)) && !hadError) return finish(null);
      if (phase === 'done') return;
      const written = phase === 'write' || phase === 'closing';
      fail(new PrintError(written ? 'error' : 'offline', `connection closed by the printer during ${phase}`, written));
    });
  });
}
