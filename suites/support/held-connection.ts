import { setTimeout as delay } from 'node:timers/promises';
import { type RawConnection, openRawConnection } from '../../src/client/raw-http.ts';
import type { ApiResponse } from '../../src/client/index.ts';
import type { ConformanceContext } from '../../src/harness/index.ts';
import { type RawAuth, type RawRoute, askRaw } from './other-stacks.ts';

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
  /** How long the connection had been open when the hold ended. */
  ageMs: number;
  /** False when the target would not keep a connection for the hold (legal): the age is what it allowed. */
  kept: boolean;
  /** Sends on the held connection, or on a new one once the target has closed it (or said it would). */
  ask(path: string, auth: RawAuth): Promise<ApiResponse>;
  close(): void;
}

/** The answer says the connection ends after it. */
const saysClose = (response: ApiResponse) => /(^|,)\s*close\s*(,|$)/i.test(response.headers.connection ?? '');

/**
 * One keep-alive connection opened and held for `holdMs`, a valid listPets on it every KEEP_ALIVE_MS so
 * that an idle time-out does not end it (closing it is the target's right: a new one is opened, up to
 * REOPENS times; then `kept` is false and the requests go on whatever connection the target keeps).
 */
export async function holdConnection(ctx: ConformanceContext, route: RawRoute, holdMs: number, wrong: string): Promise<HeldConnection> {
  const base = new URL(ctx.run.baseUrl);
  const until = Math.min(holdMs, Math.max(0, ctx.run.deadline - Date.now() - DEADLINE_MARGIN_MS));
  if (until < holdMs) ctx.note(`the run's --max-duration leaves ${Math.round(until / 1000)} s of the ${Math.round(holdMs / 1000)} s hold`);
  let connection: RawConnection | undefined;
  let opened = 0;
  let ending = false;
  let reopens = -1;
  const ask = async (path: string, auth: RawAuth): Promise<ApiResponse> => {
    if (connection === undefined || connection.closed || ending) {
      connection?.close();
      connection = await openRawConnection(base, ctx.run.timeoutMs, route.network);
      opened = performance.now();
      reopens += 1;
    }
    const response = await askRaw(ctx, route, path, auth, wrong, connection);
    ending = response.status === 0 || saysClose(response);
    return response;
  };
  const held = (kept: boolean): HeldConnection => ({ ageMs: performance.now() - opened, kept, ask, close: () => connection?.close() });
  // Each request that keeps the connection alive is judged too: a valid list is never a 5xx, however old
  // the connection it comes on (a server that fails old connections shows here first).
  const keepAlive = async () => {
    const response = await ask('/pets?limit=1', 'valid');
    if (response.status !== 0) ctx.judge('status-below', response, { limit: 500 }, 'a valid listPets on the held connection');
  };
  await keepAlive();
  for (;;) {
    if (ending && reopens >= REOPENS) {
      ctx.note(`the target closed the held connection ${reopens + 1} times before ${Math.round(until / 1000)} s (legal): the requests went on new ones`);
      return held(false);
    }
    const age = performance.now() - opened;
    if (!ending && age >= until) return held(true);
    if (!ending) await delay(Math.min(KEEP_ALIVE_MS, until - age));
    await keepAlive();
  }
}
