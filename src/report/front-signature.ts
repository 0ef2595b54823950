import type { Exchange } from '../client/exchange.ts';
import type { ConformanceReport } from './report-types.ts';

/**
 * An answer that lacks the server's signature probably came from something in front of it (a gateway, a
 * proxy, a load balancer refusing a 24 KiB header with a bare 431), not from the server under test. The
 * signature is what the run's other answers show: the X-RateLimit-* headers every Animal Store answer
 * carries, an error body in the interface's Error shape, one Server header and no Via. Two signs missing
 * make the hint; it never changes a verdict (the failure stands: the suite sees one HTTP interface), it
 * says where to look and how to tell.
 */
export interface ServerSignature {
  /** Most answers carried X-RateLimit-Limit: an answer without it stands out. */
  rateLimited: boolean;
  /** The Server header most evidence answers carried (lower case), if any did. */
  server: string | undefined;
}

/** Answers with rate-limit headers needed, and their least share, before an answer without them stands out. */
const SIGNED_ANSWERS = 5;
const SIGNED_SHARE = 0.5;
/** Evidence answers needed before their Server header says what the server's is. */
const SERVER_QUORUM = 3;

export function serverSignature(report: ConformanceReport): ServerSignature {
  const answered = report.traffic.requestCount - report.traffic.transportErrors;
  const signed = report.traffic.rateLimit.length;
  const rateLimited = signed >= SIGNED_ANSWERS && signed / Math.max(1, answered) >= SIGNED_SHARE;
  const servers = new Map<string, number>();
  let seen = 0;
  for (const requirement of report.requirements)
    for (const failure of requirement.failures)
      for (const exchange of failure.evidence) {
        if (!exchange.response) continue;
        seen += 1;
        const server = header(exchange, 'server')?.toLowerCase();
        if (server) servers.set(server, (servers.get(server) ?? 0) + 1);
      }
  const [top, count] = [...servers].sort((a, b) => b[1] - a[1])[0] ?? [];
  return { rateLimited, server: top !== undefined && (count ?? 0) >= SERVER_QUORUM && (count ?? 0) * 2 > seen ? top : undefined };
}

/** Why this answer probably came from something in front, with how to tell; undefined when it looks like the server's. */
export function frontHint(exchange: Exchange | undefined, signature: ServerSignature): string | undefined {
  const response = exchange?.response;
  if (!response) return undefined;
  const signs: string[] = [];
  if (signature.rateLimited && header(exchange, 'x-ratelimit-limit') === undefined) signs.push('no X-RateLimit-* headers, which the other answers carry');
  if (response.status >= 400 && !isErrorBody(response.body)) signs.push("a body that is not the interface's Error");
  const via = header(exchange, 'via');
  if (via !== undefined) signs.push('a Via header');
  const server = header(exchange, 'server')?.toLowerCase();
  if (signature.server !== undefined && server !== signature.server) signs.push(`Server: ${server ?? 'none'} where the other answers say ${signature.server}`);
  if (signs.length < 2) return undefined;
  return `probably answered by something in front of the server (a gateway, proxy or load balancer): ${signs.join(', ')}. To tell, send the curl line to the server directly, past what is in front, or compare the Server and Via headers of this answer with a passing one`;
}

function isErrorBody(body: string | undefined): boolean {
  try {
    const value = JSON.parse(body ?? '') as unknown;
    return (
      typeof value === 'object' &&
      value !== null &&
      typeof (value as { code?: unknown }).code === 'string' &&
      typeof (value as { message?: unknown }).message === 'string'
    );
  } catch {
    return false;
  }
}

function header(exchange: Exchange | undefined, name: string): string | undefined {
  const headers = exchange?.response?.headers ?? {};
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}
