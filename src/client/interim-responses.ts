import type { Agent as AgentTypes, Dispatcher, buildConnector as Connector } from 'undici';
import { Agent, Client, buildConnector } from './undici-core.ts';
import { DIRECT, type NetworkSettings, type SocketAdapter, proxiedDispatcher, targetTls, withHeaders } from './network-settings.ts';
import { curlShapedHeads } from './wire-shape.ts';

/** An interim `100 Continue` at the start of what the socket delivers: status line, fields, blank line. */
const CONTINUE = /^HTTP\/1\.[01] 100[^\r\n]*\r\n(?:[^\r\n]+\r\n)*\r\n/;
const CONTINUE_START = Buffer.from('HTTP/1.');

/**
 * A connection that reads a response preceded by unsolicited `100 Continue` interim responses, as HTTP
 * requires of every client (RFC 9110 §15.2: a client MUST be able to parse one or more 1xx responses
 * before the final one, even when it did not expect one). undici accepts other 1xx but closes the
 * connection on 100; this drops each such interim response before undici's parser sees it. The suite
 * sends one request at a time on a connection, so a response starts at a read's first byte.
 */
export function continueTolerantConnector(options: Connector.BuildOptions = {}): Connector.connector {
  return tolerateContinue(buildConnector(options));
}

/** `connect`, its sockets reading interim 100 Continue responses (see continueTolerantConnector). */
export function tolerateContinue(connect: Connector.connector): Connector.connector {
  return (connectOptions, callback) =>
    connect(connectOptions, (error, socket) => {
      if (error || !socket) return callback(error ?? new Error('no socket'), null);
      const read = socket.read.bind(socket);
      socket.read = (size?: number) => {
        const chunk = read(size) as Buffer | string | null;
        return Buffer.isBuffer(chunk) ? dropContinue(chunk) : chunk;
      };
      return callback(null, socket);
    });
}

/** The chunk without the 100 Continue responses it starts with. */
export function dropContinue(chunk: Buffer): Buffer {
  let rest = chunk;
  while (rest.subarray(0, CONTINUE_START.length).equals(CONTINUE_START)) {
    const match = CONTINUE.exec(rest.subarray(0, 8192).toString('latin1'));
    if (!match) break;
    rest = rest.subarray(match[0].length);
  }
  return rest;
}

/**
 * An undici dispatcher whose connections read interim 100 Continue responses (see above), reaching the
 * target as `network` says: through its proxy, trusting its CA; `watch` adapts its sockets too (stray-bytes.ts).
 */
export function createAgent(options: Omit<AgentTypes.Options, 'connect'> = {}, network: NetworkSettings = DIRECT, watch?: SocketAdapter): Dispatcher {
  // The watch sees what undici reads, after an interim 100 Continue is dropped; heads go out as curl writes them.
  const adapt: SocketAdapter = (connect) => {
    const shaped = curlShapedHeads(tolerateContinue(connect));
    return watch ? watch(shaped) : shaped;
  };
  const dispatcher = proxiedDispatcher(network, options, adapt) ?? new Agent({ ...options, connect: adapt(buildConnector(targetTls(network))) });
  return network.headers.length > 0 ? dispatcher.compose(withHeaders(network.headers)) : dispatcher;
}

/** One connection of a test's own (requests in turn on it), reading interim 100 Continue like the run's agent. */
export function createConnection(origin: string, network: NetworkSettings = DIRECT): Dispatcher {
  const dispatcher =
    proxiedDispatcher(network, { connections: 1, pipelining: 1 }, tolerateContinue) ??
    new Client(origin, { pipelining: 1, connect: continueTolerantConnector(targetTls(network)) });
  return network.headers.length > 0 ? dispatcher.compose(withHeaders(network.headers)) : dispatcher;
}
