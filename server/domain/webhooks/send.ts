import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { hostOf, isPrivateAddress, publicOnlyLookup } from './url-policy.ts';

export interface SendResult {
  status: number | null;
  retryAfter: string | undefined;
  error: string | null;
  durationMs: number;
}

// Kept-alive connections per receiver: 1,000 events to one endpoint reuse a handful of sockets.
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 64, keepAliveMsecs: 10_000 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64, keepAliveMsecs: 10_000 }),
};

/**
 * POSTs one signed body. Never throws: a refused connection, a timeout or a refused address
 * is reported in `error` with `status` null. The answer counts once its status line is in;
 * the body is drained and ignored, under the same deadline: a receiver that has not finished
 * its answer `timeoutMs` after the send began loses the connection (it is destroyed, not
 * kept alive), so a stalled receiver never holds a socket of the agent for long.
 */
export function postWebhook(opts: {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivateTargets: boolean;
  signal?: AbortSignal;
}): Promise<SendResult> {
  const started = performance.now();
  const done = (status: number | null, error: string | null, retryAfter?: string): SendResult => ({
    status,
    error,
    retryAfter,
    durationMs: Math.round(performance.now() - started),
  });
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(opts.url);
    } catch {
      return resolve(done(null, 'invalid URL'));
    }
    if (!opts.allowPrivateTargets && net.isIP(hostOf(url)) && isPrivateAddress(hostOf(url))) {
      return resolve(done(null, 'URL points at a non-public address'));
    }
    const secure = url.protocol === 'https:';
    let settled = false;
    const finish = (r: SendResult) => {
      if (settled) return;
      settled = true;
      resolve(r);
    };
    const req = (secure ? https : http).request(url, {
      method: 'POST',
      agent: secure ? agents.https : agents.http,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(opts.body),
        'user-agent': 'comanda-webhooks/1',
        ...opts.headers,
      },
      lookup: opts.allowPrivateTargets ? undefined : publicOnlyLookup,
      signal: opts.signal,
    });
    // One deadline for the whole exchange, body included. Once the status is in, its
    // passing no longer changes the outcome (finish is a no-op); it only frees the socket.
    const timer = setTimeout(() => {
      finish(done(null, `timed out after ${opts.timeoutMs} ms`));
      req.destroy();
    }, opts.timeoutMs);
    const stop = () => clearTimeout(timer);
    req.on('close', stop);
    req.on('response', (res) => {
      const ra = res.headers['retry-after'];
      finish(done(res.statusCode ?? null, null, Array.isArray(ra) ? ra[0] : ra));
      res.on('end', stop);
      res.on('error', () => undefined);
      res.resume();
    });
    req.on('error', (err: NodeJS.ErrnoException) => finish(done(null, err.code ? `${err.code}: ${err.message}` : err.message)));
    req.end(opts.body);
  });
}
