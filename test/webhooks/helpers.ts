import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { emitEvent } from '../../server/domain/events/emit.ts';
import { WEBHOOK_JOBS } from '../../server/features/webhooks.ts';
import type { TestHub } from '../helpers/server.ts';
import type { EventType } from '../../server/model/events.ts';

export interface Received {
  id: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** null when no secret was set to check against */
  verified: boolean | null;
}

export type Reply = { status: number; headers?: Record<string, string>; delayMs?: number } | 'hang';

/** A webhook receiver on loopback: records every request and answers what `respond` says. */
export class Receiver {
  readonly received: Received[] = [];
  secret: string | null = null;
  respond: (req: Received, n: number) => Reply = () => ({ status: 200 });
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified: boolean | null = null;
      if (this.secret) {
        try {
          new Webhook(this.secret).verify(body, req.headers as Record<string, string>);
          verified = true;
        } catch {
          verified = false;
        }
      }
      const r: Received = { id: String(req.headers['webhook-id']), headers: req.headers, body, verified };
      this.received.push(r);
      const reply = this.respond(r, this.received.length);
      if (reply === 'hang') return; // never answers; the sender's timeout must end it
      const answer = () => {
        res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
        res.end('ok');
      };
      if (reply.delayMs) setTimeout(answer, reply.delayMs);
      else answer();
    });
  });
  url = '';

  static async start(): Promise<Receiver> {
    const r = new Receiver();
    await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', () => resolve()));
    r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}/hook`;
    return r;
  }

  /** Checks every request received so far against `secret` with the standardwebhooks package. */
  allVerify(secret: string): boolean {
    const wh = new Webhook(secret);
    return this.received.every((r) => {
      try {
        wh.verify(r.body, r.headers as Record<string, string>);
        return true;
      } catch {
        return false;
      }
    });
  }

  ids(): Set<string> {
    return new Set(this.received.map((r) => r.id));
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Emits one event through the real outbox path (a transaction, the fan-out hook, the commit wake-up). */
export async function emit(hub: TestHub, type: EventType = 'order.created', opts: { livemode?: boolean; restaurantId?: string; object?: unknown } = {}) {
  const actor = { restaurantId: opts.restaurantId ?? hub.restaurant.id, livemode: opts.livemode ?? true, now: hub.clock.now() };
  return hub.server.services.tx.run((trx) =>
    emitEvent(trx, actor, type, opts.object ?? { id: `ord_test${Math.random().toString(36).slice(2, 8)}`, object: 'order', total: 1234 }),
  );
}

/** Runs the retry sweep: sends whatever is due and waits for every attempt in flight. */
export function sweep(hub: TestHub): Promise<void> {
  return hub.server.scheduler.runNow(WEBHOOK_JOBS.retrySweep);
}
