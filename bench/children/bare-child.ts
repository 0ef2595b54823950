import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A bare node:http server answering recorded bytes: the same status, headers (X-RateLimit-* included)
 * and body the reference sent, by method. The floor the reference is compared with.
 *
 * A POST does the least any createPet must do before it answers: read the whole body, parse it
 * (JSON.parse) and keep what it read. A floor that drops the body unread would charge the reference
 * for work no correct server can skip, and the kept values grow the heap as a store does.
 */
export interface RecordedReply {
  status: number;
  /** Raw header pairs as received, minus the ones node:http writes itself. */
  headers: [string, string][];
  body: string;
}

const replies = JSON.parse(readFileSync(process.env.BENCH_REPLIES ?? '', 'utf8')) as Record<string, RecordedReply>;
// Each reply's header list flattened once, as any server would hold a constant: flattening it for every
// request (Array.prototype.flat) cost about 1.7 µs of a POST's CPU, and a slower floor flatters the reference.
const heads = new Map(Object.entries(replies).map(([method, reply]) => [method, reply.headers.flat()]));
const kept: unknown[] = [];

const server = createServer((request, response) => {
  const reply = replies[request.method ?? ''];
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.once('end', () => {
    if (!reply) {
      response.writeHead(405).end();
      return;
    }
    if (chunks.length > 0) kept.push(JSON.parse((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8')));
    response.writeHead(reply.status, heads.get(request.method ?? ''));
    response.end(reply.body);
  });
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ type: 'ready', url: `http://127.0.0.1:${port}/v1` });
});
process.on('message', (message: { type: string }) => {
  if (message.type === 'cpu') process.send?.({ type: 'cpu', ...process.cpuUsage() });
  else if (message.type === 'stop') server.close(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
