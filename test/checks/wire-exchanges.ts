import type { RuleExchange } from '../../src/checks/judgment-rules.ts';
import type { WirePlace, WireRecord } from '../../src/text/wire-record.ts';
import { parseJson } from '../../src/text/json.ts';

/** A raw probe's exchange as the log records it: its answer's bytes, its request's, the connection. */
export function wired(
  place: WirePlace,
  status: number,
  options: {
    body?: string;
    head?: string;
    heard?: { bytes: number; closed: boolean };
    run?: number;
    connection?: number;
    ended?: WireRecord['ended'];
    keyed?: boolean;
  } = {},
): RuleExchange {
  const body = options.body ?? (status === 0 ? '' : '[]');
  const head = options.head ?? '';
  const read = status === 0 ? '' : `HTTP/1.1 ${status} X\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${head}\r\n${body}`;
  const keyed = options.keyed ?? (place === 'lone' || place === 'first' || place === 'upload' || place === 'odd' || place === 'odd-next');
  const sent = `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: store.test\r\n${keyed ? 'Authorization: Bearer ***\r\n' : ''}Accept: application/json\r\n\r\n`;
  let parsed: unknown;
  try {
    parsed = parseJson(body);
  } catch {
    parsed = undefined;
  }
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n').filter(Boolean)) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
  return {
    status,
    headers,
    text: body,
    body: parsed,
    isJson: parsed !== undefined,
    requestText: undefined,
    url: 'http://store.test/v1/pets?limit=1',
    operationId: 'listPets',
    startedAt: 0,
    ...(options.heard ? { heardAfter: options.heard } : {}),
    wire: {
      place,
      run: options.run ?? 1,
      connection: options.connection ?? 1,
      sent: { text: sent, size: sent.length },
      read: { text: read, size: read.length },
      ended: options.ended ?? (status === 0 ? 'closed' : 'response'),
    },
  };
}

const QUIET = { bytes: 0, closed: false };

/** The framing probe's exchanges of a clean run: a request alone, then the pipelined pair (the second without a key: 401). */
export function cleanProbe(run = 1): RuleExchange[] {
  return [
    wired('lone', 200, { heard: QUIET, run }),
    wired('first', 200, { run }),
    wired('second', 401, { heard: QUIET, run, body: '{"code":"unauthorized","message":"no key","status":401}' }),
  ];
}
