import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { isHarnessError } from '../../src/errors.ts';
import { type PreflightAnswer, classify, preflight } from '../../src/harness/preflight.ts';
import { FAULT_NAMES } from '../../src/reference/index.ts';
import { KEY, startServer } from '../support/reference-server.ts';

const dir = mkdtempSync(join(tmpdir(), 'preflight-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ledgerPath = join(dir, 'ledger');

const BASE = 'https://api.example/v1';
const answer = (overrides: Partial<PreflightAnswer>): PreflightAnswer => ({
  status: 200,
  contentType: 'application/json',
  rateLimited: true,
  location: undefined,
  retryAfter: undefined,
  body: '[]',
  json: true,
  list: true,
  ...overrides,
});

/** The code the preflight throws, or 'passed'. */
async function outcome(baseUrl: string, apiKey: string): Promise<string> {
  try {
    await preflight({ baseUrl, apiKey, timeoutMs: 5_000, ledgerPath, maxWaitMs: 1_000 });
    return 'passed';
  } catch (error) {
    if (isHarnessError(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
}

/** A server on port 0 answering every request with `respond`, closed when the test ends. */
async function serve(respond: (url: string, authorization: string | undefined) => { status: number; type: string; body: string }): Promise<string> {
  const server = createServer((req, res) => {
    const { status, type, body } = respond(req.url ?? '/', req.headers.authorization);
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('classify: a wrong setup, or an Animal Store to test', () => {
  it.each([
    ['401', answer({ status: 401, body: '{"code":"unauthorized","message":"no","status":401}' }), 'ERR_KEY_REFUSED'],
    ['an HTML page', answer({ contentType: 'text/html', rateLimited: false, body: '<!doctype html><h1>Welcome</h1>', json: false }), 'ERR_NOT_ANIMAL_STORE'],
    ['application/json that is not JSON, without rate-limit headers', answer({ rateLimited: false, body: 'oops', json: false }), 'ERR_NOT_ANIMAL_STORE'],
    ['a bare 404', answer({ status: 404, rateLimited: false, body: 'Not Found', contentType: 'text/plain' }), 'ERR_WRONG_BASE_URL'],
    ['a JSON 404 without rate-limit headers', answer({ status: 404, rateLimited: false, body: '{"error":"no route"}' }), 'ERR_WRONG_BASE_URL'],
    ['a redirect', answer({ status: 302, location: 'https://login.example/', body: '' }), 'ERR_WRONG_BASE_URL'],
  ])('%s is a wrong setup', (_label, given, code) => {
    expect(classify(given, BASE)?.code).toBe(code);
  });

  it.each([
    ['a 200 JSON list', answer({})],
    ['a 404 with rate-limit headers (an Animal Store whose listPets is broken)', answer({ status: 404, body: '{"code":"nf","message":"x","status":404}' })],
    ['a 500', answer({ status: 500, body: 'oops', contentType: 'text/plain' })],
    ['a 200 JSON object (a wrapped list)', answer({ body: '{"data":[]}' })],
    ['a 200 JSON list served as text/plain', answer({ contentType: 'text/plain' })],
    // The rate-limit headers say Animal Store: a body that does not parse is its failure (SCH-004), not a wrong setup.
    ['a 200 application/json that is not JSON, with rate-limit headers', answer({ body: '{"id":1,', json: false })],
  ])('%s is tested, not refused', (_label, given) => {
    expect(classify(given, BASE)).toBeUndefined();
  });
});

describe('preflight against real servers', () => {
  it('passes the reference with each named fault: a faulty Animal Store is never a wrong setup', async () => {
    const refused: string[] = [];
    for (const fault of FAULT_NAMES) {
      const server = await startServer({ faults: [fault] });
      const result = await outcome(`${server.url}`, KEY);
      if (result !== 'passed') refused.push(`${fault}: ${result}`);
    }
    expect(refused).toEqual([]);
  });

  it('a wrong key: the key was refused, said without the key', async () => {
    const server = await startServer();
    const result = await outcome(server.url, 'wrong-key-0123456789');
    expect(result).toMatch(/^ERR_KEY_REFUSED: the key was refused: GET .*\/pets\?limit=1 answered 401/);
    expect(result).not.toContain('wrong-key-0123456789');
  });

  it('a refused --plan-key: named by its plan and its flag, never by its value', async () => {
    const server = await startServer();
    const planKeys = [{ plan: 'free' as const, key: 'wrong-free-key-0123456789' }];
    const run = preflight({ baseUrl: server.url, apiKey: KEY, planKeys, timeoutMs: 5_000, ledgerPath, maxWaitMs: 1_000 });
    const error = await run.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(isHarnessError(error) && error.code).toBe('ERR_KEY_REFUSED');
    const message = (error as Error).message;
    expect(message).toMatch(/^the free-plan key \(--plan-key \/ ASC_PLAN_KEY\) was refused: GET .*\/pets\?limit=1 answered 401/);
    expect(message).not.toContain('wrong-free-key-0123456789');
  });

  it('an HTML page that echoes the key: not an Animal Store, the echo redacted', async () => {
    const origin = await serve((_url, authorization) => ({ status: 200, type: 'text/html', body: `<html><body>you sent ${authorization}</body></html>` }));
    const result = await outcome(`${origin}/v1`, 'echoed-Key-5f8e2d');
    expect(result).toMatch(/^ERR_NOT_ANIMAL_STORE: not an Animal Store API: .* answered 200 text\/html, not JSON: <html>/);
    expect(result).not.toContain('echoed-Key-5f8e2d');
  });

  it('a mock that serves /pets without /v1: check --target, with where the API does answer', async () => {
    const origin = await serve((url) =>
      url.startsWith('/pets') ? { status: 200, type: 'application/json', body: '[]' } : { status: 404, type: 'text/plain', body: 'Not Found' },
    );
    const result = await outcome(`${origin}/v1`, 'mock-key-0123456789');
    expect(result).toMatch(
      /^ERR_WRONG_BASE_URL: .* answered 404: Not Found: check --target .*; http:\/\/127\.0\.0\.1:\d+\/pets answers 200: try --target http:\/\/127\.0\.0\.1:\d+$/,
    );
  });

  it('every request is claimed in the budget ledger', async () => {
    const before = readFileSync(ledgerPath, 'utf8').length;
    const server = await startServer();
    await outcome(server.url, KEY);
    expect(readFileSync(ledgerPath, 'utf8').length).toBe(before + 1);
  });
});
