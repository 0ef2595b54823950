import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as undici from 'undici';
import { describe, expect, it } from 'vitest';
import * as core from '../../src/client/undici-core.ts';
import { sendJson, startServer } from './test-server.ts';

const CORE = fileURLToPath(new URL('../../src/client/undici-core.ts', import.meta.url));

describe("undici-core: undici's dispatchers without its index", () => {
  it("exports the very classes and functions undici's index exports", () => {
    expect(core.Agent).toBe(undici.Agent);
    expect(core.Client).toBe(undici.Client);
    expect(core.Pool).toBe(undici.Pool);
    expect(core.ProxyAgent).toBe(undici.ProxyAgent);
    expect(core.buildConnector).toBe(undici.buildConnector);
    expect(core.getGlobalDispatcher).toBe(undici.getGlobalDispatcher);
  });

  it('puts the API methods on every dispatcher, as the index does (a ProxyAgent tunnels with connect)', () => {
    const agent = new core.Agent();
    expect(typeof (agent as unknown as Record<string, unknown>).connect).toBe('function');
    expect(typeof agent.request).toBe('function');
    void agent.close();
  });

  it('sends a request to the URL path and query given, on the dispatcher given', async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, '{"ok":true}'));
    const agent = new core.Agent();
    const response = await core.request(`${server.baseUrl}/pets?limit=2&offset=0`, {
      dispatcher: agent,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(response.statusCode).toBe(200);
    expect(await response.body.text()).toBe('{"ok":true}');
    expect(server.requests).toEqual([expect.objectContaining({ method: 'POST', url: '/v1/pets?limit=2&offset=0', body: '{"a":1}' })]);
    await agent.close();
  });

  it("takes the parts from undici's index where one of its modules is not found or not as expected (another 7.x shared with a host project)", () => {
    const real = createRequire(import.meta.url);
    const asked: string[] = [];
    const parts = core.undiciParts((id) => {
      asked.push(id);
      if (id === 'undici/lib/dispatcher/pool.js') throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
      return real(id);
    });
    expect(asked.at(-1)).toBe('undici');
    expect(parts.Pool).toBe(undici.Pool);
    expect(parts.request).toBe(undici.request);
    // A module found but not what this project was built against (another layout): the index too.
    const moved = core.undiciParts((id) => (id === 'undici/lib/core/util.js' ? {} : real(id)));
    expect(moved.request).toBe(undici.request);
    expect(moved.Agent).toBe(undici.Agent);
    // Any other failure is not hidden behind the index.
    expect(() =>
      core.undiciParts(() => {
        throw new Error('broken module');
      }),
    ).toThrow('broken module');
  });

  it("loads none of fetch, WebSocket, the caches or the mocks (the index's weight)", () => {
    const script = [
      `await import(${JSON.stringify(CORE)});`,
      "const { createRequire } = await import('node:module');",
      'const loaded = Object.keys(createRequire(import.meta.url).cache);',
      "console.log(JSON.stringify({ undici: loaded.filter((p) => p.includes('undici')).length, heavy: loaded.filter((p) => /[\\\\/]undici[\\\\/](index\\.js|lib[\\\\/](web|mock|cache)[\\\\/])/.test(p)) }));",
    ].join('\n');
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    const { undici: count, heavy } = JSON.parse(out) as { undici: number; heavy: string[] };
    expect(count).toBeGreaterThan(10);
    expect(heavy).toEqual([]);
  });
});
