import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from '../errors.ts';
import { docUrlOf } from './error-middleware.ts';
import { newRequestId } from './request-id.ts';

/**
 * A request Node's HTTP parser refuses before koa sees it (a URL or headers past its 16 KiB
 * limit, a malformed request line) still gets the one error body, not Node's bare status line.
 */
export function answerClientErrors(server: http.Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || (socket as { _httpMessage?: unknown })._httpMessage) {
      socket.destroy();
      return;
    }
    const refusal =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? new ApiError('request_too_large', 'The URL and headers of the request are larger than 16 KiB.')
        : new ApiError('parameter_invalid', 'The request is not valid HTTP.');
    // no koa context here: the id is made and sent the same way
    const requestId = newRequestId();
    const body = JSON.stringify({ error: { ...refusal.toBody().error, request_id: requestId, doc_url: docUrlOf(refusal.code) } });
    socket.end(
      `HTTP/1.1 ${refusal.status} ${refusal.status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nRequest-Id: ${requestId}\r\nX-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
