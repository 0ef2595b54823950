import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { isHarnessError } from '../../src/errors.ts';
import { generateDemoKeys, maskKey, parseApiKeys } from '../../src/reference/index.ts';
import { describeServer, readStandaloneConfig } from '../../src/reference/standalone.ts';

const CLI = fileURLToPath(new URL('../../src/bin/cli.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function configError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(isHarnessError(error) && error.code).toBe('ERR_CONFIG');
    return (error as Error).message;
  }
  throw new Error('expected a configuration error');
}

describe('REFERENCE_API_KEYS', () => {
  it('parses keys with plans in any case, and custom numbers', () => {
    expect(parseApiKeys(' a-key-1:free , b-key-2:PRO,c-key-3:Business:5:50, d-key-4:enterprise:7:70 ,')).toEqual([
      { key: 'a-key-1', plan: 'free', perMinute: 60, perDay: 1_000 },
      { key: 'b-key-2', plan: 'pro', perMinute: 300, perDay: 10_000 },
      { key: 'c-key-3', plan: 'business', perMinute: 5, perDay: 50 },
      { key: 'd-key-4', plan: 'enterprise', perMinute: 7, perDay: 70 },
    ]);
  });

  it('refuses malformed entries with a message that does not reveal the key', () => {
    const cases = [
      'secretkey1:gold',
      'secretkey1:enterprise',
      'secretkey1:enterprise:5',
      'secretkey1:free:0:10',
      'secretkey1:free:x:10',
      'secretkey1',
      'secretkey1:free:1:2:3',
      'secretkey1:free,secretkey1:pro',
      'secret key:free',
      ':free',
    ];
    for (const text of cases)
      expect(
        configError(() => parseApiKeys(text)),
        text,
      ).not.toContain('secretkey1');
  });

  it('generates one demo key per plan and masks keys for printing', () => {
    const keys = generateDemoKeys();
    expect(keys.map((k) => k.plan)).toEqual(['free', 'pro', 'business', 'enterprise']);
    expect(new Set(keys.map((k) => k.key)).size).toBe(4);
    expect(maskKey('abcdefghyz')).toBe('ab…yz');
    expect(maskKey('short')).toBe('…');
  });
});

describe('standalone configuration', () => {
  it('takes the port from --port, then PORT, then 8080', () => {
    expect(readStandaloneConfig(['--port', '9000'], { PORT: '7000' })).toMatchObject({ port: 9000, host: '127.0.0.1' });
    expect(readStandaloneConfig(['--port=0', '--host', '0.0.0.0'], {})).toMatchObject({ port: 0, host: '0.0.0.0' });
    expect(readStandaloneConfig([], { PORT: '7000' })).toMatchObject({ port: 7000, keys: undefined });
    expect(readStandaloneConfig([], {})).toMatchObject({ port: 8080 });
    expect(readStandaloneConfig(['--help'], {})).toBe('help');
  });

  it('takes the rate window from --window, then REFERENCE_WINDOW_SECONDS, then a minute', () => {
    expect(readStandaloneConfig(['--window', '2'], { REFERENCE_WINDOW_SECONDS: '5' })).toMatchObject({ windowSeconds: 2 });
    expect(readStandaloneConfig([], { REFERENCE_WINDOW_SECONDS: '5' })).toMatchObject({ windowSeconds: 5 });
    expect(readStandaloneConfig([], {})).toMatchObject({ windowSeconds: 60 });
    for (const bad of ['0', '61', '1.5', 'two', '-1'])
      expect(configError(() => readStandaloneConfig([`--window=${bad}`], {}))).toBe(`window must be a whole number of seconds from 1 to 60, got "${bad}"`);
  });

  it('serves a one-second window, and says the suite judges windows of 2 s or more', () => {
    const server = { url: 'http://127.0.0.1:1/v1', generatedKeys: false, keys: [{ key: 'key-0123456789', plan: 'free', perMinute: 60, perDay: 1000 }] };
    const shown = (seconds: number) => describeServer(server as unknown as Parameters<typeof describeServer>[0], seconds).join('\n');
    expect(readStandaloneConfig(['--window', '1'], {})).toMatchObject({ windowSeconds: 1 });
    expect(shown(1)).toMatch(/60\/1 s[\s\S]*Note: the conformance suite judges windows of 2 s or more \(--rate-window\)/);
    expect(shown(2)).not.toMatch(/Note:/);
    expect(shown(60)).not.toMatch(/Note:/);
  });

  it('refuses a bad port, an unknown flag and bad keys', () => {
    configError(() => readStandaloneConfig(['--port', 'http'], {}));
    configError(() => readStandaloneConfig(['--port', '70000'], {}));
    configError(() => readStandaloneConfig(['--verbose'], {}));
    configError(() => readStandaloneConfig([], { REFERENCE_API_KEYS: 'k:nope' }));
    configError(() => readStandaloneConfig([], { REFERENCE_API_KEYS: ' , ' }));
  });
});

function run(args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'reference', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onTestFinished(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return child;
}

function output(child: ChildProcess, until: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk) => {
      text += String(chunk);
      if (until.test(text)) resolve(text);
    });
    child.once('exit', () => resolve(text));
    child.once('error', reject);
  });
}

describe('npm run reference', () => {
  it('prints the base URL and masked keys, serves, and stops on SIGTERM', async () => {
    const child = run(['--port', '0'], { REFERENCE_API_KEYS: 'standalone-key-1:free,standalone-key-2:enterprise:10:20' });
    const text = await output(child, /Stop with/);
    const url = /http:\/\/127\.0\.0\.1:\d+\/v1/.exec(text)?.[0];
    expect(url).toBeDefined();
    expect(text).toContain('st…-1');
    expect(text).not.toContain('standalone-key-1');
    const response = await fetch(`${url}/pets`, { headers: { authorization: 'Bearer standalone-key-2' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit')).toBe('10');
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('--window shortens the window the per-minute limits apply to: the 429 names a turn within it', async () => {
    const child = run(['--port', '0', '--window', '3'], { REFERENCE_API_KEYS: 'window-key-1:enterprise:2:100' });
    const text = await output(child, /Stop with/);
    expect(text).toMatch(/enterprise\s+2\/3 s\s+100\/day/);
    const url = /http:\/\/127\.0\.0\.1:\d+\/v1/.exec(text)?.[0];
    const get = () => fetch(`${url}/pets`, { headers: { authorization: 'Bearer window-key-1' } });
    // The key's windows turn on the clock: three requests that straddle a turn meet two windows, and the
    // third is rightly served (each answer's X-RateLimit-Reset names its window). Such a try is sent again
    // from the start of the next window, at most twice.
    let answers: Response[] = [];
    for (let tries = 1; tries <= 3; tries += 1) {
      answers = [await get(), await get(), await get()];
      const windows = new Set(answers.map((answer) => answer.headers.get('x-ratelimit-reset')));
      if (windows.size === 1) break;
      const turn = Number(answers[2]!.headers.get('x-ratelimit-reset')) * 1000;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, turn - Date.now()) + 50));
    }
    const refused = answers[2]!;
    const now = Date.now() / 1000;
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429]);
    // Without --window the turn is up to a minute away; with it, at most the window's 3 seconds.
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(3);
    const untilReset = Number(refused.headers.get('x-ratelimit-reset')) - now;
    expect(untilReset).toBeGreaterThan(-1);
    expect(untilReset).toBeLessThanOrEqual(3);
    child.kill('SIGTERM');
  });

  it('prints generated demo keys in full', async () => {
    const child = run(['--port', '0'], { REFERENCE_API_KEYS: '' });
    const text = await output(child, /Stop with/);
    const key = /demo-pro-[\w-]+/.exec(text)?.[0];
    const url = /http:\/\/127\.0\.0\.1:\d+\/v1/.exec(text)?.[0];
    expect((await fetch(`${url}/pets`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    child.kill('SIGINT');
  });

  it('exits 2 with one line on stderr when REFERENCE_API_KEYS is bad', async () => {
    const child = run(['--port', '0'], { REFERENCE_API_KEYS: 'my-secret-key:platinum' });
    let stderr = '';
    child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/unknown plan "platinum"/);
    expect(stderr).not.toContain('my-secret-key');
  });
});
