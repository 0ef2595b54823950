import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * What the server does with a connection beyond answering its requests: the order of answers when a
 * request that parsed is followed by bytes that do not, and how a connection ends after a refused upload.
 */
export interface ConnectionCare {
  /** Called for every request: remembers the answer in flight on its connection. */
  track(req: IncomingMessage, res: ServerResponse): void;
  /**
   * Runs `answer` once the connection's answer in flight (if its request arrived whole) has been written:
   * a valid request followed by garbage in the same write gets its own answer first, then the 400.
   */
  afterAnswerInFlight(socket: Socket, answer: () => void): void;
  /**
   * Ends the connection after its answer with a lingering close: FIN once the answer is written, what the
   * client still sends (the rest of a refused upload) read and dropped for `lingerMs`, then the close.
   * Closing at once with unread bytes would send a reset, and the client could lose the answer.
   */
  closeGently(socket: Socket): void;
}

export interface ConnectionLimits {
  lingerMs: number;
}

export function createConnectionCare(limits: ConnectionLimits): ConnectionCare {
  // Per server, weakly held: a socket that is gone takes its entry with it.
  const inFlight = new WeakMap<Socket, ServerResponse>();

  function whenWritten(res: ServerResponse, then: () => void): void {
    if (res.writableFinished || res.destroyed) {
      then();
      return;
    }
    let done = false;
    const once = (): void => {
      if (done) return;
      done = true;
      then();
    };
    res.once('finish', once);
    res.once('close', once);
  }

  function linger(socket: Socket): void {
    if (socket.destroyed) return;
    socket.end();
    socket.resume();
    const timer = setTimeout(() => socket.destroy(), limits.lingerMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    socket.once('end', () => socket.destroy());
  }

  return {
    track(req, res) {
      inFlight.set(req.socket, res);
    },
    afterAnswerInFlight(socket, answer) {
      const res = inFlight.get(socket);
      // A request cut short by the bad bytes has no whole answer coming: the 400 is the answer.
      if (res === undefined || !res.req.complete) {
        answer();
        return;
      }
      whenWritten(res, answer);
    },
    closeGently(socket) {
      // Node ends a connection whose answer said Connection: close with destroySoon(), which closes at once.
      socket.destroySoon = () => linger(socket);
    },
  };
}
