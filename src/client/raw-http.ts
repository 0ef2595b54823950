import { type Socket, connect as connectTcp } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { HarnessError } from '../errors.ts';
import { networkAdvice } from './network-advice.ts';
import { type RawResponse, parseResponse } from '../text/http1-parse.ts';
import { DIRECT, type NetworkSettings, targetTls } from './network-settings.ts';

export { type RawResponse, parseResponse };

/** What reading one response found: a response, or why there is none. */
export type RawReading =
  /** `bytes`: the answer as read, interim responses included (what the log keeps of it). */
  | { kind: 'response'; response: RawResponse; bytes: Buffer }
  /** The connection closed before a whole response; `received` is what came before the close. */
  | { kind: 'closed'; received: Buffer }
  | { kind: 'timeout'; received: Buffer }
  | { kind: 'malformed'; reason: string; received: Buffer };

/** What came on a connection while nothing was asked: bytes, and whether the target closed it. */
export interface QuietReading {
  bytes: Buffer;
  closed: boolean;
  /** Milliseconds from the start of the wait to the close, when it closed. */
  closedAfterMs?: number;
}

/** One HTTP/1.1 connection written and read byte for byte: no pool, no retry, no parser of undici's. */
export interface RawConnection {
  write(bytes: string): Promise<void>;
  /** Reads one final response (interim 1xx skipped), waiting at most `timeoutMs`. */
  readResponse(timeoutMs: number): Promise<RawReading>;
  /** Waits `ms` and returns what arrived meanwhile (nothing, from a target that keeps to the protocol). */
  quiet(ms: number): Promise<QuietReading>;
  readonly closed: boolean;
  close(): void;
  /** Ends the connection with a TCP reset, as a client that gives up does, rather than a FIN. */
  reset(): void;
}

/**
 * A connection of the probe's own to the target, as the run reaches it: through the proxy's CONNECT
 * tunnel when there is one (byte for byte, so the target's own framing is what the probe reads), over
 * TLS with the run's CA or --insecure.
 */
export async function openRawConnection(url: URL, timeoutMs: number, network: NetworkSettings = DIRECT): Promise<RawConnection> {
  const secure = url.protocol === 'https:';
  const port = Number(url.port || (secure ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const deadline = Date.now() + timeoutMs;
  const tunnel = network.proxy === undefined ? undefined : await openTunnel(new URL(network.proxy), url, port, timeoutMs);
  const tls = { ...targetTls(network), servername: isIpLiteral(host) ? undefined : host, ALPNProtocols: ['http/1.1'] };
  const socket: Socket = secure ? connectTls(tunnel ? { ...tls, socket: tunnel } : { ...tls, host, port }) : (tunnel ?? connectTcp({ host, port }));
  socket.setNoDelay(true);
  if (!tunnel || secure) await connected(socket, secure ? 'secureConnect' : 'connect', url.origin, Math.max(1, deadline - Date.now()));
  return wrap(socket);
}

/** Resolves when `socket` emits `event`; a failure or the time limit rejects with the reason. */
function connected(socket: Socket, event: string, origin: string, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new HarnessError('ERR_TARGET_TIMEOUT', `no connection to ${origin} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once(event, () => {
      clearTimeout(timer);
      resolve();
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const advice = networkAdvice(error.code, error.message);
      reject(new HarnessError('ERR_TARGET_UNREACHABLE', `cannot connect to ${origin}: ${advice ?? error.code ?? error.message}`));
    });
  });
}

/** A CONNECT tunnel through the proxy to the target's host and port; the proxy's 2xx consumed. */
async function openTunnel(proxy: URL, target: URL, port: number, timeoutMs: number): Promise<Socket> {
  const socket = connectTcp({ host: proxy.hostname.replace(/^\[|\]$/g, ''), port: Number(proxy.port || 80) });
  await connected(socket, 'connect', proxy.origin, timeoutMs);
  const authority = `${target.hostname}:${port}`;
  const credentials = proxy.username
    ? `Proxy-Authorization: Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}\r\n`
    : '';
  socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${credentials}\r\n`);
  const head = await new Promise<string>((resolve, reject) => {
    let seen = Buffer.alloc(0);
    const timer = setTimeout(
      () => fail(new HarnessError('ERR_TARGET_TIMEOUT', `the proxy ${proxy.origin} did not open a tunnel within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      seen = Buffer.concat([seen, chunk]);
      const end = seen.indexOf('\r\n\r\n');
      if (end === -1) return;
      clearTimeout(timer);
      socket.off('data', onData);
      // Bytes past the proxy's answer belong to the target: none are expected before a request is sent.
      if (end + 4 < seen.length) socket.unshift(seen.subarray(end + 4));
      resolve(seen.subarray(0, end).toString('latin1'));
    };
    socket.on('data', onData);
    socket.once('error', (error) => fail(new HarnessError('ERR_TARGET_UNREACHABLE', `the proxy ${proxy.origin} failed: ${error.message}`)));
  });
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1];
  if (!status?.startsWith('2')) {
    socket.destroy();
    throw new HarnessError('ERR_TARGET_UNREACHABLE', `the proxy ${proxy.origin} refused a tunnel to ${authority} (${status ?? 'no HTTP answer'})`);
  }
  return socket;
}

function isIpLiteral(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}

function wrap(socket: Socket): RawConnection {
  let buffer = Buffer.alloc(0);
  let ended = false;
  let endedAt = 0;
  let wake: (() => void) | undefined;
  const notify = () => {
    const waiting = wake;
    wake = undefined;
    waiting?.();
  };
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    notify();
  });
  const end = () => {
    if (!ended) endedAt = performance.now();
    ended = true;
    notify();
  };
  socket.on('end', end);
  socket.on('close', end);
  socket.on('error', end);

  /** Resolves on the next bytes or close, or when `until` (performance.now) passes; false on the latter. */
  const more = (until: number) =>
    new Promise<boolean>((resolve) => {
      const left = until - performance.now();
      if (left <= 0) return resolve(false);
      const timer = setTimeout(() => {
        wake = undefined;
        resolve(false);
      }, left);
      wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });

  async function readResponse(timeoutMs: number): Promise<RawReading> {
    const until = performance.now() + timeoutMs;
    let interim = 0;
    const read: Buffer[] = [];
    for (;;) {
      const parsed = parseResponse(buffer, ended);
      if (parsed.kind === 'malformed') return { kind: 'malformed', reason: parsed.reason, received: takeAll() };
      if (parsed.kind === 'complete') {
        read.push(buffer.subarray(0, parsed.length));
        buffer = buffer.subarray(parsed.length);
        if (parsed.response.status >= 100 && parsed.response.status < 200 && parsed.response.status !== 101) {
          interim += 1;
          continue;
        }
        return { kind: 'response', response: { ...parsed.response, interim }, bytes: Buffer.concat(read) };
      }
      if (ended) return { kind: 'closed', received: takeAll() };
      if (!(await more(until))) return { kind: 'timeout', received: takeAll() };
    }
  }

  function takeAll(): Buffer {
    const all = buffer;
    buffer = Buffer.alloc(0);
    return all;
  }

  return {
    write: (bytes) =>
      new Promise<void>((resolve) => {
        // A write to a connection the target closed fails; the reading that follows says so.
        if (socket.destroyed || !socket.writable) return resolve();
        socket.write(bytes, 'latin1', () => resolve());
      }),
    readResponse,
    async quiet(ms) {
      const started = performance.now();
      const until = started + ms;
      while (!ended && (await more(until)));
      const reading: QuietReading = { bytes: takeAll(), closed: ended };
      if (ended) reading.closedAfterMs = Math.max(0, Math.round(endedAt - started));
      return reading;
    },
    get closed() {
      return ended;
    },
    close: () => socket.destroy(),
    reset: () => {
      // Only a TCP socket still open can be reset (not one the target closed, nor TLS over a tunnel).
      if (socket.destroyed || socket.readyState === 'closed' || socket.readyState === 'readOnly') return void socket.destroy();
      try {
        socket.resetAndDestroy();
      } catch {
        socket.destroy();
      }
    },
  };
}
