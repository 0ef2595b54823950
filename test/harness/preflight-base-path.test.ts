import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { isHarnessError } from '../../src/errors.ts';
import { preflight } from '../../src/harness/preflight.ts';
import { KEY, startServer } from '../support/reference-server.ts';

const dir = mkdtempSync(join(tmpdir(), 'preflight-base-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function outcome(baseUrl: string, apiKey = KEY): Promise<string> {
  try {
    await preflight({ baseUrl, apiKey, timeoutMs: 5_000, ledgerPath: join(dir, 'ledger'), maxWaitMs: 1_000 });
    return 'passed';
  } catch (error) {
    if (isHarnessError(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
}

/** A server answering like an Animal Store (rate-limit headers everywhere) at `api` only. */
async function storeAt(api: string, elsewhere: (url: string) => { status: number; headers?: Record<string, string>; body: string }): Promise<string> {
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const answer = url.startsWith(`${api}/pets`) ? { status: 200, body: '[]' } : elsewhere(url);
    res.writeHead(answer.status, { 'content-type': 'application/json', 'x-ratelimit-limit': '100', ...('headers' in answer ? answer.headers : {}) });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('preflight knows where the API is', () => {
  it('the reference without /v1: exit 2 with the corrected --target, not a run of MUST failures', async () => {
    const server = await startServer();
    const origin = server.url.replace(/\/v1$/, '');
    const result = await outcome(origin);
    expect(result).toBe(
      `ERR_WRONG_BASE_URL: GET ${origin}/pets?limit=1 answered 404, but ${origin}/v1/pets is the Animal Store API: run again with --target ${origin}/v1`,
    );
  });

  it('the reference at its /v1 passes (a 404 from listPets is only a setup mistake when /v1 below answers)', async () => {
    const server = await startServer();
    expect(await outcome(server.url)).toBe('passed');
  });

  it('a redirect to the API on the same origin names that path', async () => {
    const origin = await storeAt('/api/store/v1', () => ({ status: 301, headers: { location: '/api/store/v1/pets?limit=1' }, body: '' }));
    expect(await outcome(`${origin}/api`)).toMatch(new RegExp(`run again with --target ${origin}/api/store/v1$`));
  });

  it('a 404 whose body names the base path', async () => {
    const origin = await storeAt('/animal-store/v1', () => ({ status: 404, body: '{"message":"the API lives under /animal-store/v1"}' }));
    expect(await outcome(origin)).toMatch(new RegExp(`but ${origin}/animal-store/v1/pets is the Animal Store API`));
  });

  it('a redirect to another origin is never followed with the key', async () => {
    const seen: string[] = [];
    const other = await storeAt('/v1', (url) => {
      seen.push(url);
      return { status: 404, body: '{}' };
    });
    const origin = await storeAt('/nowhere', () => ({ status: 302, headers: { location: `${other}/v1/pets` }, body: '' }));
    const result = await outcome(origin);
    expect(result).toMatch(/^ERR_WRONG_BASE_URL: .* a redirect/);
    expect(seen).toEqual([]);
  });

  it('a candidate that answers 404 too (a store whose listPets is broken) is not taken for the API', async () => {
    const origin = await storeAt('/never', () => ({ status: 404, body: '{"code":"not_found","message":"see /other/v1","status":404}' }));
    expect(await outcome(`${origin}/v1`)).toBe('passed');
  });
});
