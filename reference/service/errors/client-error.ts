// What the HTTP parser refuses before any route runs (a request line or headers too large, a request that
// does not parse) is answered like every other error: a JSON body whose statusCode is the status. Two
// things a keep-alive client needs besides: `Connection: close` (the parser cannot go on, so the socket
// ends), and no body after the headers of a HEAD, which the client reads as the start of its next answer.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/** A request line this long is refused as such (414); Node's parser counts it with the headers (16 KiB in all). */
const REQUEST_LINE_LIMIT = 8 * 1024;

/** A parser error as Node raises it: its code, and the packet it was parsing (a Buffer, whatever fastify's type says). */
type ParserError = Error & { code: string; rawPacket?: unknown };

/** The status of a parser error: too large (the request line: 414, the headers: 431), anything else 400. */
function statusOf(err: ParserError, head: string): number {
  if (err.code !== 'HPE_HEADER_OVERFLOW') return 400;
  const lineEnd = head.indexOf('\r\n');
  return lineEnd < 0 || lineEnd > REQUEST_LINE_LIMIT ? 414 : 431;
}

export function answerClientError(err: ParserError, socket: Socket): void {
  if (!socket.writable || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  // The bytes the parser was given when it failed: for a request of one packet, its start, method included.
  const head = Buffer.isBuffer(err.rawPacket) ? err.rawPacket.toString('latin1') : '';
  const status = statusOf(err, head);
  const body = JSON.stringify({
    statusCode: status,
    error: STATUS_CODES[status],
    message: err.code === 'HPE_HEADER_OVERFLOW' ? 'Request too large' : 'Malformed request',
  });
  const headers = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  socket.end(`${headers.join('\r\n')}\r\n\r\n${head.startsWith('HEAD ') ? '' : body}`);
}
