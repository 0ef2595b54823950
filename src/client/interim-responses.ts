import { Agent, Client, buildConnector } from 'undici';

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
export function continueTolerantConnector(options: buildConnector.BuildOptions = {}): buildConnector.connector {
  const connect = buildConnector(options);
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

/** An undici Agent whose connections read interim 100 Continue responses (see above). */
export function createAgent(options: Omit<Agent.Options, 'connect'> = {}): Agent {
  return new Agent({ ...options, connect: continueTolerantConnector() });
}

/** One connection of a test's own (requests in turn on it), reading interim 100 Continue like the run's agent. */
export function createConnection(origin: string): Client {
  return new Client(origin, { pipelining: 1, connect: continueTolerantConnector() });
}
