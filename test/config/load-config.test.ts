import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { bypassed } from '../../src/config/network-flags.ts';
import { networkSecrets } from '../../src/client/network-settings.ts';

const TARGET = 'https://staging.example/v1';
const KEY = 'key-0123456789-abcdef';

function dir(files: Record<string, string> = {}): string {
  const at = tempDir('asc-config-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(at, name), text);
  return at;
}

describe('nothing ambient narrows a run', () => {
  it("a job's unprefixed PLAN, ONLY, PROFILE, STRICT, SEED and a workspace .env change nothing; a notice names them", () => {
    const cwd = dir({ '.env': 'ONLY=deprecation\nASC_ONLY=deprecation\nASC_PROFILE=quick\n' });
    const env = { PLAN: 'tfplan.out', ONLY: 'deprecation', PROFILE: 'quick', STRICT: 'maybe', SEED: 'x', API_KEY: KEY };
    const config = loadConfig({ flags: { target: TARGET }, env, cwd });
    expect(config.only).toEqual([]);
    expect(config.profile).toBe('standard');
    expect(config.plan).toBeUndefined();
    expect(config.strict).toBe(false);
    expect(config.warnings.join('\n')).toMatch(/PLAN, PROFILE, ONLY, SEED, STRICT, which this suite no longer reads: its variables are ASC_PLAN/);
    expect(config.warnings.join('\n')).toMatch(/a \.env file is in the working directory and was not read: pass --env-file \.env/);
  });

  it('the ASC_ names and the credential aliases are read', () => {
    const config = loadConfig({ env: { ASC_TARGET: TARGET, API_KEY: KEY, ASC_PROFILE: 'quick', ASC_ONLY: 'auth', ASC_STRICT: 'true' }, cwd: dir() });
    expect([config.target, config.apiKey, config.profile, config.only, config.strict]).toEqual([TARGET, KEY, 'quick', ['auth'], true]);
    expect(loadConfig({ env: { TARGET_BASE_URL: TARGET, ASC_API_KEY: KEY }, cwd: dir() }).apiKey).toBe(KEY);
  });
});

describe('where settings come from', () => {
  it('flags > environment > --env-file > --config, each value from the first layer that has it', () => {
    const cwd = dir({
      'ci.env': `API_KEY=${KEY}\nASC_PROFILE=thorough\nASC_SEED=11\n`,
      'asc.yaml': 'target: https://staging.example/v1\nprofile: quick\nseed: 22\ncategory-ids: "1,2"\nstrict: true\n',
    });
    const config = loadConfig({ flags: { envFile: 'ci.env', config: 'asc.yaml', seed: '33' }, env: { ASC_PROFILE: 'standard' }, cwd });
    expect(config.seed).toBe(33);
    expect(config.profile).toBe('standard');
    expect(config.apiKey).toBe(KEY);
    expect(config.target).toBe(TARGET);
    expect(config.categoryIds).toEqual(['1', '2']);
    expect(config.strict).toBe(true);
  });

  it('a wrong value names where it came from', () => {
    const cwd = dir({ 'ci.env': 'ASC_PROFILE=fast\n', 'asc.yaml': 'profile: fastest\n' });
    expect(() => loadConfig({ env: { ASC_PROFILE: 'fast' }, cwd })).toThrow(
      /^ASC_PROFILE \(environment\) must be one of quick, standard, thorough; got "fast"/,
    );
    expect(() => loadConfig({ flags: { envFile: 'ci.env' }, env: {}, cwd })).toThrow(/ASC_PROFILE \(env file ci\.env\) must be one of/);
    expect(() => loadConfig({ flags: { config: 'asc.yaml' }, env: {}, cwd })).toThrow(/profile \(config file asc\.yaml\) must be one of/);
    expect(() => loadConfig({ flags: { profile: 'x' }, env: {}, cwd })).toThrow(/^--profile must be one of/);
    expect(() => loadConfig({ env: { ASC_STRICT: 'sure' }, cwd })).toThrow(/ASC_STRICT \(environment\) must be true or false/);
  });

  it('a config file is checked: unknown keys with the nearest names, secrets refused, types checked, not YAML refused', () => {
    const cwd = dir({
      'typo.yaml': 'profle: quick\n',
      'secret.yaml': `api-key: ${KEY}\n`,
      'header.yaml': 'header: "X-Token: abcdefgh"\n',
      'type.yaml': 'strict: [1]\n',
      'list.yaml': '- a\n- b\n',
      'bad.yaml': 'a: [\n',
    });
    const load = (file: string) => () => loadConfig({ flags: { config: file }, env: {}, cwd });
    expect(load('typo.yaml')).toThrow(/unknown setting "profle"; did you mean profile\?/);
    expect(load('secret.yaml')).toThrow(/api-key does not belong in a file kept with the code; set ASC_API_KEY/);
    expect(load('header.yaml')).toThrow(/header does not belong in a file/);
    expect(load('type.yaml')).toThrow(/config file type\.yaml: strict must be boolean/);
    expect(load('list.yaml')).toThrow(/must be a mapping/);
    expect(load('bad.yaml')).toThrow(/neither YAML nor JSON/);
    expect(load('missing.yaml')).toThrow(/--config: no such file/);
  });
});

describe('staging as teams deploy it', () => {
  const remote = { target: TARGET, apiKey: KEY };

  it('--header: repeatable "Name: value"; the suite-owned fields and malformed lines refused', () => {
    const config = loadConfig({ flags: { ...remote, header: ['CF-Access-Client-Id: abc.access', 'X-Env:  staging-7 '] }, env: {}, cwd: dir() });
    expect(config.network.headers).toEqual([
      ['CF-Access-Client-Id', 'abc.access'],
      ['X-Env', 'staging-7'],
    ]);
    const header = (line: string) => () => loadConfig({ flags: { ...remote, header: [line] }, env: {}, cwd: dir() });
    expect(header('Authorization: Basic eHg6eXk=')).toThrow(/cannot set Authorization: the key goes in --api-key/);
    expect(header('Host: other')).toThrow(/cannot set Host/);
    expect(header('no colon here')).toThrow(/must look like 'Name: value'/);
    expect(header('Bad Name: x')).toThrow(/must look like 'Name: value'/);
    expect(() => loadConfig({ flags: { header: ['X-A: b'] }, env: {}, cwd: dir() })).toThrow(/apply to a remote target/);
    // From the environment, one header a line.
    const fromEnv = loadConfig({ flags: remote, env: { ASC_HEADER: 'X-A: 1\nX-B: 2\n' }, cwd: dir() });
    expect(fromEnv.network.headers.map(([name]) => name)).toEqual(['X-A', 'X-B']);
  });

  it('proxies: --proxy always; HTTPS_PROXY / HTTP_PROXY by scheme unless NO_PROXY names the host or it is loopback', () => {
    const proxyOf = (target: string, env: Record<string, string>, proxy?: string) =>
      loadConfig({ flags: { target, apiKey: KEY, ...(proxy ? { proxy } : {}) }, env, cwd: dir() }).network.proxy;
    expect(proxyOf(TARGET, { HTTPS_PROXY: 'http://proxy.corp:3128' })).toBe('http://proxy.corp:3128/');
    expect(proxyOf(TARGET, { https_proxy: 'proxy.corp:3128' })).toBe('http://proxy.corp:3128/');
    expect(proxyOf(TARGET, { HTTP_PROXY: 'http://proxy.corp:3128' })).toBeUndefined();
    expect(proxyOf('http://staging.example/v1', { HTTP_PROXY: 'http://proxy.corp:3128' })).toBe('http://proxy.corp:3128/');
    expect(proxyOf(TARGET, { HTTPS_PROXY: 'http://proxy.corp:3128', NO_PROXY: 'localhost,.example' })).toBeUndefined();
    expect(proxyOf('https://127.0.0.1:8443/v1', { HTTPS_PROXY: 'http://proxy.corp:3128' })).toBeUndefined();
    expect(proxyOf('https://127.0.0.1:8443/v1', {}, 'http://127.0.0.1:3128')).toBe('http://127.0.0.1:3128/');
    expect(() => proxyOf(TARGET, { HTTPS_PROXY: 'socks5://x:1' })).toThrow(/HTTPS_PROXY \(environment\) must be an http:\/\/ or https:\/\/ proxy/);
    const noProxy = (host: string, list: string) => bypassed(new URL(`https://${host}/v1`), list);
    expect([noProxy('api.example.com', 'example.com'), noProxy('example.com', '.example.com'), noProxy('notexample.com', 'example.com')]).toEqual([
      true,
      true,
      false,
    ]);
    expect([noProxy('a.b:8443', 'a.b:443'), noProxy('a.b:8443', 'a.b:8443'), noProxy('x.y', '*')]).toEqual([false, true, true]);
  });

  it('--vantage-proxy: a second path for CON-004 alone, its credentials secret, only with --target', () => {
    const network = loadConfig({ flags: { target: TARGET, apiKey: KEY, vantageProxy: 'http://user:secret-word@10.0.0.9:3128' }, env: {}, cwd: dir() }).network;
    expect(network.vantageProxy).toBe('http://user:secret-word@10.0.0.9:3128/');
    expect(network.proxy).toBeUndefined();
    expect(networkSecrets(network)).toContain('secret-word');
    expect(() => loadConfig({ flags: { apiKey: KEY, vantageProxy: 'http://10.0.0.9:3128' }, env: {}, cwd: dir() })).toThrow(/--vantage-proxy/);
    expect(() => loadConfig({ flags: { target: TARGET, apiKey: KEY, vantageProxy: 'socks5://x:1' }, env: {}, cwd: dir() })).toThrow(/http:\/\/ or https:\/\//);
  });

  it('--hold-connection: 45 s against a remote target, a quarter second embedded, 0 turns it off, anything but whole seconds refused', () => {
    const hold = (flags: Record<string, string>) => loadConfig({ flags: { apiKey: KEY, ...flags }, env: {}, cwd: dir() }).holdConnectionMs;
    expect(hold({ target: TARGET })).toBe(45_000);
    expect(hold({})).toBe(250);
    expect(hold({ holdConnection: '1' })).toBe(1_000);
    expect(hold({ target: TARGET, holdConnection: '0' })).toBe(0);
    expect(hold({ target: TARGET, holdConnection: '90' })).toBe(90_000);
    expect(() => hold({ target: TARGET, holdConnection: '1.5' })).toThrow(/--hold-connection must be a whole number of seconds/);
  });

  it('warns of each key shorter than the fragments redaction looks for, naming its setting and length, never the key', () => {
    const warnings = (flags: Record<string, string>) =>
      loadConfig({ flags: { target: TARGET, ...flags }, env: {}, cwd: dir() }).warnings.filter((w) => /characters? long/.test(w));
    expect(warnings({ apiKey: KEY })).toEqual([]);
    expect(warnings({ apiKey: 'abcdefgh' })).toEqual([]);
    const short = warnings({ apiKey: 'x7', exhaustKey: 'q', planKey: 'pro=seven77' });
    expect(short).toHaveLength(3);
    expect(short[0]).toMatch(/^--api-key is 2 characters long: .*left untested \(unprovable\)\. A key of 8 characters or more/);
    expect(short[1]).toMatch(/^--exhaust-key is 1 character long/);
    expect(short[2]).toMatch(/^--plan-key \(pro\) is 7 characters long/);
    expect(short.join('\n')).not.toMatch(/x7|seven77/);
  });

  it('--rate-window: unset unless given (a minute, or the embedded reference its own), whole seconds from 2 to 60', () => {
    const window = (flags: Record<string, string>, env: Record<string, string> = {}) =>
      loadConfig({ flags: { target: TARGET, apiKey: KEY, ...flags }, env, cwd: dir() }).rateWindowMs;
    expect(window({})).toBeUndefined();
    expect(window({ rateWindow: '2' })).toBe(2_000);
    expect(window({}, { ASC_RATE_WINDOW: '60' })).toBe(60_000);
    for (const wrong of ['0', '1', '61', '1.5', 'a minute'])
      expect(() => window({ rateWindow: wrong })).toThrow(/--rate-window must be a whole number of seconds from 2 to 60/);
  });

  it('--ca-cert reads a PEM; --insecure is never certifiable', () => {
    const cwd = dir({ 'ca.pem': '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n', 'not.pem': 'hello' });
    expect(loadConfig({ flags: { ...remote, caCert: 'ca.pem' }, env: {}, cwd }).network.caCert).toContain('BEGIN CERTIFICATE');
    expect(() => loadConfig({ flags: { ...remote, caCert: 'not.pem' }, env: {}, cwd })).toThrow(/holds no PEM certificate/);
    expect(() => loadConfig({ flags: { ...remote, insecure: true, certify: join(cwd, 'bundle'), profile: 'thorough', plan: 'pro' }, env: {}, cwd })).toThrow(
      /--certify cannot be combined with --insecure/,
    );
  });
});

describe('a control character in a secret is refused at start, by name, never echoed', () => {
  it.each([
    ['API_KEY (environment)', { API_KEY: `${KEY}\n` }, {}, /API_KEY \(environment\): the key holds a line break at its end/],
    ['--api-key', {}, { apiKey: `${KEY}\r` }, /--api-key: the key holds a carriage return at its end/],
    [
      'EXHAUST_API_KEY (environment)',
      { API_KEY: KEY, EXHAUST_API_KEY: `ex\u0001${KEY}` },
      {},
      /EXHAUST_API_KEY \(environment\): the key holds the control character U\+0001 at character 3/,
    ],
    [
      'ASC_HEADER (environment)',
      { API_KEY: KEY, ASC_HEADER: 'X-Gateway: tok\u007fen' },
      {},
      /ASC_HEADER \(environment\): the value of X-Gateway holds the control character U\+007F/,
    ],
    ['--plan-key', { API_KEY: KEY }, { planKey: [`pro=a\tb-${KEY}`] }, /--plan-key: entry 1: the key holds a tab/],
  ])('%s', (_from, env, flags, message) => {
    let thrown: unknown;
    try {
      loadConfig({ flags: { target: TARGET, ...flags }, env, cwd: dir() });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'ERR_CONFIG', message: expect.stringMatching(message) });
    expect((thrown as Error).message).not.toContain(KEY);
  });

  it('a tab inside a header value is allowed (HTTP allows it)', () => {
    const config = loadConfig({ flags: { target: TARGET, header: ['X-Gateway: a\tb'] }, env: { API_KEY: KEY }, cwd: dir() });
    expect(config.network.headers).toEqual([['X-Gateway', 'a\tb']]);
  });
});

describe('--seed', () => {
  it('takes a GitHub run id, reduced as the Action reduces it; refuses what is not a whole number', () => {
    expect(loadConfig({ flags: { seed: '31415926535' }, env: {}, cwd: dir() }).seed).toBe(31415926535 % 2147483647);
    expect(loadConfig({ flags: { seed: '-7' }, env: {}, cwd: dir() }).seed).toBe(-7);
    expect(() => loadConfig({ flags: { seed: '1.5' }, env: {}, cwd: dir() })).toThrow(/--seed must be a whole number/);
  });
});

describe('paths in a --config file', () => {
  it("resolve against the file's folder, not the working directory; flags' paths against the working directory", () => {
    const cwd = dir();
    mkdirSync(join(cwd, 'conformance'));
    writeFileSync(join(cwd, 'conformance', 'asc.yaml'), 'baseline: known.yaml\nreport-dir: ../out\nhtml: /abs/report.html\n');
    const config = loadConfig({ flags: { config: 'conformance/asc.yaml' }, env: {}, cwd });
    expect(config.baseline).toBe(join(cwd, 'conformance', 'known.yaml'));
    expect(config.reportDir).toBe(join(cwd, 'out'));
    expect(config.outputs.html).toBe('/abs/report.html');
    expect(loadConfig({ flags: { config: 'conformance/asc.yaml', baseline: 'mine.yaml' }, env: {}, cwd }).baseline).toBe('mine.yaml');
  });
});
