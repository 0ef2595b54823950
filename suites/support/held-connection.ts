import { setTimeout as delay } from 'node:timers/promises';
import { type RawConnection, openRawConnection } from '../../src/client/raw-http.ts';
import type { ConformanceContext } from '../../src/harness/index.ts';
import { type RawRoute, askRaw } from './other-stacks.ts';

/** Between two requests on the held connection: under the 5 s a Node server keeps an idle one open by default. */
export const KEEP_ALIVE_MS = 3_000;
/** A target may close a kept-alive connection whenever it likes (RFC 9112 §9.5): this many new ones, then the hold gives up. */
const REOPENS = 2;
/** Left of the run's time when the hold stops early: the deciding requests still have to be sent. */
const DEADLINE_MARGIN_MS = 15_000;

/** Requests a hold of `holdMs` spends on its connection: the first, and one every KEEP_ALIVE_MS. */
export function holdRequests(holdMs: number): number {
  return 1 + Math.ceil(holdMs / KEEP_ALIVE_MS) + REOPENS;
}

export interface HeldConnection {
  connection: RawConnection;
  /** How long the connection had been open when the hold ended. */
  ageMs: number;
}

/**
 * One keep-alive connection opened and held for `holdMs`, a valid listPets on it every KEEP_ALIVE_MS so
 * that an idle time-out does not end it (closing it is the target's right: a new one is opened, up to
 * REOPENS times). Undefined when the target would not keep one that long, which is legal: nothing to judge.
 */
export async function holdConnection(ctx: ConformanceContext, route: RawRoute, holdMs: number, wrong: string): Promise<HeldConnection | undefined> {
  const base = new URL(ctx.run.baseUrl);
  const until = Math.min(holdMs, Math.max(0, ctx.run.deadline - Date.now() - DEADLINE_MARGIN_MS));
  if (until < holdMs) ctx.note(`the run's --max-duration leaves ${Math.round(until / 1000)} s of the ${Math.round(holdMs / 1000)} s hold`);
  let connection = await openRawConnection(base, ctx.run.timeoutMs, route.network);
  let opened = performance.now();
  let reopens = 0;
  const ping = () => askRaw(ctx, route, '/pets?limit=1', 'valid', wrong, connection);
  let answer = await ping();
  for (;;) {
    if (answer.status === 0 || connection.closed) {
      connection.close();
      if (reopens === REOPENS) {
        ctx.note(`the target closed the held connection ${REOPENS + 1} times before ${Math.round(until / 1000)} s (legal): no old connection to ask on`);
        return undefined;
      }
      reopens += 1;
      connection = await openRawConnection(base, ctx.run.timeoutMs, route.network);
      opened = performance.now();
      answer = await ping();
      continue;
    }
    const age = performance.now() - opened;
    if (age >= until) return { connection, ageMs: age };
    await delay(Math.min(KEEP_ALIVE_MS, until - age));
    answer = await ping();
  }
}
