import { type Socket, connect } from 'node:net';
import { type RawOutcome, drip, rawExchange } from './raw-exchange.ts';
import { median } from './stats.ts';

/** Runs `work` over `items` with at most `width` in flight; results in order. */
export async function pooled<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return results;
}

const get = (key: string, target: string): Buffer => Buffer.from(`GET ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`, 'latin1');

export interface CreatesResult {
  created: number;
  uniqueIds: number;
  retrieved: number;
  problems: number;
}

/** `count` createPet calls at once, each on its own connection; then every id read back. */
export async function concurrentCreates(port: number, key: string, count: number): Promise<CreatesResult> {
  const names = Array.from({ length: count }, (_, i) => `concurrent ${i}`);
  const outcomes = await Promise.all(
    names.map((name) => {
      const body = JSON.stringify({ name, categoryId: 1 });
      const bytes = Buffer.from(
        `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      return rawExchange(port, bytes, { timeoutMs: 30_000 });
    }),
  );
  // Ids are int64: read them as text, never as a JS number.
  const ids = outcomes.map((outcome) => (outcome.answer?.status === 201 ? /"id"\s*:\s*(-?\d+)/.exec(outcome.answer.body)?.[1] : undefined));
  const created = ids.filter((id) => id !== undefined).length;
  const unique = new Set(ids.filter((id) => id !== undefined));
  const readBack = await pooled([...ids.entries()], 50, async ([index, id]) => {
    if (id === undefined) return false;
    const outcome = await rawExchange(port, get(key, `/v1/pets/${id}`), { timeoutMs: 10_000 });
    return outcome.answer?.status === 200 && outcome.answer.body.includes(JSON.stringify(names[index]));
  });
  const retrieved = readBack.filter(Boolean).length;
  return { created, uniqueIds: unique.size, retrieved, problems: count - created + (created - unique.size) + (created - retrieved) };
}

export interface SlowResult {
  dripped: number;
  drippedServed: number;
  stalled: number;
  /** Stalled connections the server answered or closed, and the longest it took. */
  stalledClosed: number;
  stalledMaxCloseMs: number;
}

/** Live clients that drip a request over ~1.5 s (must be served), and stalled ones (must be closed). */
export async function slowClients(port: number, key: string, dripped: number, stalled: number, stallWaitMs: number): Promise<SlowResult> {
  const live = Promise.all(Array.from({ length: dripped }, () => rawExchange(port, drip(get(key, '/v1/pets?limit=1'), 15, 100), { timeoutMs: 20_000 })));
  const stuck = Promise.all(
    Array.from({ length: stalled }, (_, i) =>
      rawExchange(
        port,
        Buffer.from(
          i % 2 === 0
            ? 'GET /v1/pets HTTP/1.1\r\nHost: x\r\n'
            : `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na`,
        ),
        {
          timeoutMs: stallWaitMs,
        },
      ),
    ),
  );
  const [liveOutcomes, stuckOutcomes] = await Promise.all([live, stuck]);
  // Answered (408) or closed: either way the server let go of it.
  const closed = stuckOutcomes.filter((outcome) => outcome.closed || outcome.answer !== undefined);
  return {
    dripped,
    drippedServed: liveOutcomes.filter((outcome) => outcome.answer?.status === 200).length,
    stalled,
    stalledClosed: closed.length,
    stalledMaxCloseMs: Math.max(0, ...closed.map((outcome) => outcome.ms)),
  };
}

export interface IdleResult {
  opened: number;
  servedWhileIdle: number;
  probes: number;
}

/** Opens `count` connections that never send a byte, then checks that new clients are still served. */
export async function idleConnections(port: number, key: string, count: number, probes: number): Promise<IdleResult> {
  const sockets: Socket[] = [];
  const opened = await pooled(Array.from({ length: count }), 200, () => {
    return new Promise<boolean>((resolve) => {
      const socket = connect({ port, host: '127.0.0.1' });
      sockets.push(socket);
      socket.once('connect', () => resolve(true));
      socket.once('error', () => resolve(false));
    });
  });
  try {
    const outcomes: RawOutcome[] = await pooled(Array.from({ length: probes }), 10, () =>
      rawExchange(port, get(key, '/v1/pets?limit=1'), { timeoutMs: 10_000 }),
    );
    return { opened: opened.filter(Boolean).length, servedWhileIdle: outcomes.filter((outcome) => outcome.answer?.status === 200).length, probes };
  } finally {
    for (const socket of sockets) socket.destroy();
  }
}

export interface KeyTiming {
  nearMissMedianUs: number;
  farMissMedianUs: number;
}

/** Median answer time for wrong keys that share all but the last character with the real one, and for unrelated ones. */
export async function keyTiming(port: number, key: string, rounds: number): Promise<KeyTiming> {
  const near: number[] = [];
  const far: number[] = [];
  const nearKey = `${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`;
  const farKey = 'z'.repeat(key.length);
  for (let i = 0; i < rounds; i++) {
    const [first, second] = i % 2 === 0 ? [nearKey, farKey] : [farKey, nearKey];
    for (const candidate of [first, second]) {
      const outcome = await rawExchange(port, get(candidate as string, '/v1/pets?limit=1'), { timeoutMs: 5_000 });
      (candidate === nearKey ? near : far).push(outcome.ms * 1000);
    }
  }
  return { nearMissMedianUs: median(near), farMissMedianUs: median(far) };
}
