import { expect, onTestFinished } from 'vitest';
import { request } from 'undici';
import { createContract } from '../../src/contract/index.ts';
import { parseJson } from '../../src/text/json.ts';
import { type ReferenceOptions, type ReferenceServer, startReferenceServer } from '../../src/reference/index.ts';

/** One compiled contract for every server of a test file: compiling per server would only cost time. */
export const contract = createContract();

export const KEY = 'test-key-0123456789abcdef';
/** A key with room for any test that is not about rate limiting. */
export const ROOMY_KEY = { key: KEY, plan: 'enterprise', perMinute: 1_000_000, perDay: 10_000_000 } as const;

export interface ManualClock {
  now(): number;
  set(ms: number): void;
  advance(ms: number): void;
}

export function manualClock(start = Date.UTC(2026, 0, 1, 12, 0, 0)): ManualClock {
  let now = start;
  return { now: () => now, set: (ms) => void (now = ms), advance: (ms) => void (now += ms) };
}

/**
 * Starts a server for the current test and closes it when the test ends. Also fails the test if the
 * server ever took its last-resort 500 path.
 */
export async function startServer(options: ReferenceOptions = {}): Promise<ReferenceServer> {
  const unexpected: string[] = [];
  const server = await startReferenceServer({
    contract,
    keys: [ROOMY_KEY],
    log: (message) => unexpected.push(message),
    ...options,
  });
  onTestFinished(async () => {
    await server.close();
    expect(unexpected, 'the server logged an unexpected error').toEqual([]);
  });
  return server;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed losslessly; undefined when it is not JSON. */
  json: unknown;
}

export interface CallOptions {
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Default KEY; null sends no Authorization header. */
  key?: string | null;
}

/** One request; `path` is relative to the server's base URL unless it starts with `//` (origin-relative). */
export async function call(server: ReferenceServer, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const key = options.key === undefined ? KEY : options.key;
  const url = path.startsWith('//') ? `http://127.0.0.1:${server.port}${path.slice(1)}` : `${server.url}${path}`;
  const headers: Record<string, string> = { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...options.headers };
  if (options.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['content-type'] = 'application/json';
  }
  const response = await request(url, { method: method as 'GET', headers, ...(options.body !== undefined ? { body: options.body } : {}) });
  const text = await response.body.text();
  let json: unknown;
  try {
    json = parseJson(text);
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, headers: response.headers, text, json };
}

export function createPet(server: ReferenceServer, pet: unknown, options: CallOptions = {}): Promise<Answer> {
  return call(server, 'POST', '/pets', { ...options, body: typeof pet === 'string' ? pet : JSON.stringify(pet) });
}

/** Asserts the Error body of the spec, with status equal to the HTTP status. */
export function expectErrorBody(answer: Answer, status?: number): void {
  if (status !== undefined) expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(contract.validate('#/components/schemas/Error', answer.json)).toEqual([]);
  const body = answer.json as { code: string; message: string; status: number };
  expect(body.status).toBe(answer.status);
  expect(body.code).not.toBe('');
  expect(body.message).not.toBe('');
}

/** Asserts the three rate-limit headers are present and well-formed. */
export function expectRateHeaders(answer: Answer): { limit: number; remaining: number; reset: number } {
  const read = (name: string) => {
    const value = answer.headers[name];
    expect(value, name).toMatch(/^\d+$/);
    return Number(value);
  };
  const limit = read('x-ratelimit-limit');
  const remaining = read('x-ratelimit-remaining');
  const reset = read('x-ratelimit-reset');
  expect(remaining).toBeLessThanOrEqual(limit);
  return { limit, remaining, reset };
}
