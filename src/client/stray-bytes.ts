import type { buildConnector } from 'undici';
import type { SocketAdapter } from './network-settings.ts';

/** Bytes of a stray arrival kept for the evidence. */
const KEPT_BYTES = 200;

/** Bytes a pooled connection received while no request of the suite's was in flight. */
export interface StrayArrival {
  /** The start of what arrived, as Latin-1 text (the caller redacts and quotes it). */
  bytes: string;
  /** Arrivals since the last one was taken, this one included. */
  count: number;
}

/** Watches the sockets of a dispatcher; `take` hands over what arrived since it was last called. */
export interface StrayWatch {
  adapt: SocketAdapter;
  take(): StrayArrival | undefined;
}

/**
 * undici closes a pooled connection that receives bytes while no request is in flight ("bad response")
 * and says nothing: the next request simply goes on another connection. Those bytes are a response
 * nobody asked for (HTTP-001), and a client that pipelines or reuses the connection reads them as the
 * next answer. The watch remembers the last chunk undici read from each socket and, when undici refuses
 * a socket for that reason, keeps it as an arrival for the next response's checks.
 */
export function createStrayWatch(): StrayWatch {
  let pending: StrayArrival | undefined;
  const adapt: SocketAdapter =
    (connect: buildConnector.connector): buildConnector.connector =>
    (options, callback) =>
      connect(options, (error, socket) => {
        if (error || !socket) return callback(error ?? new Error('no socket'), null);
        let last: Buffer = Buffer.alloc(0);
        const read = socket.read.bind(socket);
        socket.read = (size?: number) => {
          const chunk = read(size) as Buffer | string | null;
          if (Buffer.isBuffer(chunk) && chunk.length > 0) last = chunk;
          return chunk;
        };
        socket.on('error', (failure: Error & { code?: string }) => {
          if (failure.code !== 'UND_ERR_SOCKET' || failure.message !== 'bad response') return;
          const bytes = strayPart(last).subarray(0, KEPT_BYTES).toString('latin1');
          // A 408 before closing an idle connection is a server's way of saying it timed the connection out.
          if (/^HTTP\/1\.[01] 408 /.test(bytes)) return;
          pending = { bytes, count: (pending?.count ?? 0) + 1 };
        });
        return callback(null, socket);
      });
  return {
    adapt,
    take() {
      const taken = pending;
      pending = undefined;
      return taken;
    },
  };
}

/**
 * The stray part of the last chunk read: an answer and the bytes after it often arrive in one chunk, so
 * when the chunk holds a status line after its start, the stray response is taken to begin at the last one.
 */
function strayPart(chunk: Buffer): Buffer {
  const at = chunk.lastIndexOf('HTTP/1.');
  return at > 0 ? chunk.subarray(at) : chunk;
}
