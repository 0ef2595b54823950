import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext, vi } from 'vitest';
import { startReferenceServer } from '../../../src/reference/index.ts';
import { startTampering } from '../support/hostile-servers.ts';
import { allFiles, runCli } from '../../support/cli.ts';
import { createLimiter } from '../support/limiter.ts';

/**
 * The file's five runs go two at a time, across its three groups: each is a child process against a
 * server of its own (none spends a rate window), and even a thorough one keeps a core busy only about a
 * third of its time. Concurrent tests clean up through their own context (a global hook cannot tell them
 * apart), so the servers here are the reference in this process, and the directories this file's own.
 */
vi.setConfig({ maxConcurrency: 2 });
/** Also bounds the runs across the groups, which vitest starts side by side. */
const runs = createLimiter(2);

type Context = Pick<TestContext, 'onTestFinished'>;

function tempDir(context: Context, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  context.onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const KEY = 'sk-live-Recognisable-7f3a9c2e51';
/**
 * CON-004 holds a connection 45 s against a remote target by default, asleep: these runs are about what
 * their outputs hold, so they hold it 2 s, as the verdict project's other runs do (support/run-cli.ts).
 * Its requests are sent all the same, the held connection's among them.
 */
const HOLD = { ASC_HOLD_CONNECTION: '2' };
/** The key in the forms a careless log line might take. */
const FORMS = [KEY, KEY.toLowerCase(), KEY.toUpperCase(), encodeURIComponent(KEY), Buffer.from(KEY).toString('base64')];

/** The reference with one Enterprise key, closed when the test finishes. */
async function referenceWith(context: Context, key: string, faults: Array<'auth-any-token' | 'create-returns-200'> = []): Promise<string> {
  const server = await startReferenceServer({ keys: [{ key, plan: 'enterprise', perMinute: 100_000, perDay: 1_000_000 }], faults });
  context.onTestFinished(() => server.close());
  return server.url;
}

/** A reference that accepts any token and answers createPet with 200: failures whose evidence carries the key and its variants. */
const faultyTarget = (context: Context) => referenceWith(context, KEY, ['auth-any-token', 'create-returns-200']);

describe.concurrent('redaction: the API key appears in no report, bundle, console line or error', () => {
  it.concurrent.for([
    // --certify implies --require-complete: a key too large to exhaust leaves the run partial, exit 1.
    ['the right key (a partial thorough run, with a certification bundle)', (context: Context) => referenceWith(context, KEY), 1, 'partial'],
    ['a wrong key (refused by the preflight)', (context: Context) => referenceWith(context, 'right-key-only-the-server-knows-42'), 2, 'incomplete'],
    ['a faulty server (failures full of evidence)', faultyTarget, 1, 'not-conformant'],
  ] as const)('%s', async ([, start, exitCode, overall], context) => {
    const { expect } = context;
    const url = await start(context);
    const reports = tempDir(context, 'redaction-reports-');
    const bundle = tempDir(context, 'redaction-bundle-');
    const plan = ['--plan', 'enterprise:100000:1000000'];
    const result = await runs.run(() =>
      runCli(['--target', url, ...plan, '--profile', 'thorough', '--report-dir', reports, '--certify', bundle], { ...HOLD, API_KEY: KEY }),
    );
    expect(result.code, result.stdout).toBe(exitCode);
    const outputs = [{ path: 'stdout', text: result.stdout }, { path: 'stderr', text: result.stderr }, ...allFiles(reports), ...allFiles(bundle)];
    expect(outputs.map((o) => o.path.replace(/.*\//, '')).sort()).toEqual(
      expect.arrayContaining(['conformance.html', 'conformance.json', 'junit.xml', 'stdout']),
    );
    if (overall !== 'incomplete') expect(outputs.map((o) => o.path.replace(/.*\//, ''))).toEqual(expect.arrayContaining(['exchanges.har', 'manifest.json']));
    for (const { path, text } of outputs) {
      for (const form of FORMS) expect(text.includes(form), `${form} found in ${path}`).toBe(false);
    }
    const json = outputs.find((o) => o.path.endsWith('conformance.json'))?.text ?? '';
    expect((JSON.parse(json) as { verdict: { overall: string } }).verdict.overall).toBe(overall);
    // Failures carry their evidence, only redacted: Authorization reads "Bearer ***", curl uses $API_KEY.
    if (overall === 'not-conformant') {
      expect(json).toContain('Bearer ***');
      expect(json).toContain('$API_KEY');
      expect(result.stdout).toContain('Reproduce with: curl');
    }
    if (overall === 'incomplete') expect(result.stderr).toMatch(/the key was refused/);
  });
});

/** Every run of 8 characters of the key, lower-cased: none may be readable in any output. */
const FRAGMENTS = Array.from({ length: KEY.length - 7 }, (_, i) => KEY.slice(i, i + 8).toLowerCase());

/** The key with every other letter written as a JSON escape of the letter in the other case (\u0052 for r). */
const ESCAPED_OTHER_CASE = [...KEY]
  .map((c, i) => {
    if (!/[a-z]/i.test(c) || i % 2 === 1) return c;
    const other = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
    const hex = other.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${i % 4 === 0 ? hex.toUpperCase() : hex}`;
  })
  .join('');

/** What the hostile target writes into every 401: the key quoted, workflow commands, Markdown links and images. */
const HOSTILE_401 = `##[stop-commands]tok Unauthorized: the API key ${KEY} is not valid; ::warning::x ![img](https://evil.example/p.png) [click](https://evil.example) | a | ${ESCAPED_OTHER_CASE}`;

describe.concurrent('redaction: a hostile target that quotes, splits and escapes the key', () => {
  it.concurrent('no 8-character fragment of the key in any stream or file, no ##[ on stdout, no link in the job summary', async (context) => {
    const { expect } = context;
    const upstream = await referenceWith(context, KEY);
    const target = await startTampering(context, new URL(upstream).origin, (answer) => ({
      status: answer.status,
      // The key split across three headers of every answer, and escaped in the other letter case in a fourth.
      headers: { ...answer.headers, 'x-key-a': KEY.slice(0, 11), 'x-key-b': KEY.slice(11, 22), 'x-key-c': KEY.slice(22), 'x-echo': ESCAPED_OTHER_CASE },
      body: answer.status === 401 ? Buffer.from(HOSTILE_401) : answer.body,
    }));
    const reports = tempDir(context, 'hostile-redaction-reports-');
    const bundle = tempDir(context, 'hostile-redaction-bundle-');
    const summary = join(tempDir(context, 'hostile-redaction-summary-'), 'summary.md');
    const args = [
      '--target',
      `${target.origin}/v1`,
      '--plan',
      'enterprise:100000:1000000',
      '--profile',
      'thorough',
      '--report-dir',
      reports,
      '--certify',
      bundle,
    ];
    const result = await runs.run(() => runCli(args, { ...HOLD, API_KEY: KEY, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary }));
    expect(result.code, result.stdout).toBe(1);
    const summaryText = readFileSync(summary, 'utf8');
    const outputs = [
      { path: 'stdout', text: result.stdout },
      { path: 'stderr', text: result.stderr },
      { path: 'step summary', text: summaryText },
      ...allFiles(reports),
      ...allFiles(bundle),
    ];
    expect(outputs.map((o) => o.path.replace(/.*\//, ''))).toEqual(expect.arrayContaining(['conformance.html', 'junit.xml', 'exchanges.har']));
    // The hostile text did reach the outputs (as evidence), only redacted.
    expect(outputs.find((o) => o.path.endsWith('conformance.json'))?.text).toContain('Unauthorized: the API key ***');
    for (const { path, text } of outputs) {
      const lower = text.toLowerCase();
      for (const fragment of FRAGMENTS) expect(lower.includes(fragment), `${fragment} found in ${path}`).toBe(false);
    }
    expect(result.stdout).toMatch(/^::error /m);
    expect(result.stdout).not.toContain('##[');
    expect(result.stdout.split('\n').filter((line) => !/^::(error|notice) /.test(line) && line.includes('::'))).toEqual([]);
    expect(summaryText).toContain('evil.example');
    // Target text is shown as code (a fenced curl line, a code span): outside them no link or image remains.
    const outsideCode = summaryText.replace(/\n +```sh\n[^\n]*\n +```/g, '').replace(/(`+) .*? \1|(`+)[^`]*?\2/g, '');
    expect(outsideCode).not.toMatch(/(?<!\\)\]\(|(?<!\\)!\[/);
  });
});

/** The key's letters and digits alone, lower-cased, as a reader strips separators. */
const skeletonOf = (text: string) => text.replace(/[^a-z0-9]/gi, '').toLowerCase();
const reversed = (text: string) => [...text].reverse().join('');
/** The key cut in 7-character pieces, each reversed: `evil-ks`, `ngoceR-`, … */
const REVERSED_PIECES = (KEY.match(/.{1,7}/g) ?? []).map(reversed);
const KEY_BYTES = [...Buffer.from(KEY)];
/** The key split and disguised by separators, as the front of issue 47 echoed it. */
const SPLIT_FORMS = {
  dotted: skeletonOf(KEY).replace(/(.{7})/g, '$1.'),
  dashed: [...KEY].join('-'),
  pieces: REVERSED_PIECES.join('.'),
  lastFirst: [...REVERSED_PIECES].reverse().join('_'),
  hex: KEY_BYTES.map((b) => b.toString(16).padStart(2, '0')).join(':'),
  quotedPrintable: KEY_BYTES.map((b) => `=${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  decimal: KEY_BYTES.join(','),
};
/** Every run of 8 of the key's letters and digits, forwards and reversed: none may be readable once separators are stripped. */
const SKELETON_RUNS = [skeletonOf(KEY), reversed(skeletonOf(KEY))].flatMap((s) => Array.from({ length: s.length - 7 }, (_, i) => s.slice(i, i + 8)));

describe.concurrent('redaction: a front that echoes the key split by separators and reversed in pieces', () => {
  it.concurrent('no run of 8 of its letters and digits, and none of its pieces, in any stream or file', async (context) => {
    const { expect } = context;
    const upstream = await referenceWith(context, KEY);
    const pieceHeaders = Object.fromEntries(REVERSED_PIECES.map((piece, i) => [`x-piece-${i}`, piece]));
    const target = await startTampering(context, new URL(upstream).origin, (answer) => ({
      status: answer.status,
      headers: {
        ...answer.headers,
        ...pieceHeaders,
        'x-key-dotted': SPLIT_FORMS.dotted,
        'x-key-dashed': SPLIT_FORMS.dashed,
        'x-key-pieces': SPLIT_FORMS.pieces,
      },
      // Every 401 quotes the key in each split form: not the interface's Error, so the run fails with it as evidence.
      body: answer.status === 401 ? Buffer.from(`Unauthorized: ${Object.values(SPLIT_FORMS).join(' | ')}`) : answer.body,
    }));
    const reports = tempDir(context, 'split-key-reports-');
    const summary = join(tempDir(context, 'split-key-summary-'), 'summary.md');
    const args = ['--target', `${target.origin}/v1`, '--plan', 'enterprise:100000:1000000', '--profile', 'standard', '--report-dir', reports];
    const result = await runs.run(() => runCli(args, { ...HOLD, API_KEY: KEY, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary }));
    expect(result.code, result.stdout).toBe(1);
    const outputs = [
      { path: 'stdout', text: result.stdout },
      { path: 'stderr', text: result.stderr },
      { path: 'step summary', text: readFileSync(summary, 'utf8') },
      ...allFiles(reports),
    ];
    expect(outputs.map((o) => o.path.replace(/.*\//, ''))).toEqual(
      expect.arrayContaining(['conformance.html', 'conformance.json', 'junit.xml', 'exchanges.har']),
    );
    expect(result.stdout).toMatch(/^::error /m);
    // The front's text did reach the outputs, as evidence, only redacted.
    expect(outputs.find((o) => o.path.endsWith('conformance.json'))?.text).toContain('Unauthorized: ***');
    for (const { path, text } of outputs) {
      const skeleton = skeletonOf(text);
      for (const run of SKELETON_RUNS) expect(skeleton.includes(run), `${run} readable in ${path}`).toBe(false);
      for (const piece of REVERSED_PIECES.filter((p) => skeletonOf(p).length >= 5)) expect(text.includes(piece), `${piece} in ${path}`).toBe(false);
      for (const [label, form] of Object.entries(SPLIT_FORMS)) expect(text.includes(form), `${label} form in ${path}`).toBe(false);
    }
  });
});
