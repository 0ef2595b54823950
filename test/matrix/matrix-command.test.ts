import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Matrix } from '../../src/matrix/matrix-types.ts';
import { runMatrix } from '../../src/matrix/run-matrix.ts';
import { keyId, loadPrivateKey, loadPublicKey, writeKeyPair } from '../../src/certificate/index.ts';
import { HOSTILE, makeBundle } from '../support/matrix-runs.ts';
import { MADE_UP } from '../certificate/logged-run.ts';

const SCHEMA = fileURLToPath(new URL('../../spec/matrix.schema.json', import.meta.url));

/** The matrix command on real bundle files: what it trusts, what it refuses, what it writes. */
describe('matrix <bundle>… --out', () => {
  const dir = mkdtempSync(join(tmpdir(), 'matrix-cmd-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const at = (name: string) => join(dir, name);
  let keys: ReturnType<typeof writeKeyPair>;
  let other: ReturnType<typeof writeKeyPair>;

  beforeAll(() => {
    keys = writeKeyPair(at('keys'));
    other = writeKeyPair(at('other-keys'));
    const signKey = loadPrivateKey(keys.privatePath);
    makeBundle(at('clean'), {}, { implementation: 'clean-store@1.0.0', signKey });
    makeBundle(at('hostile'), { failing: ['AUTH-002', 'ERR-001'], failureText: HOSTILE }, { implementation: `${HOSTILE}@6.6.6`, signKey });
    makeBundle(at('old'), { failing: ['LIM-001'], minute: 1 }, { implementation: 'clean-store@0.9.0', signKey });
    makeBundle(at('unsigned'), { failing: ['AUTH-009'] }, { implementation: 'plain-store@2.0.0' });
    mkdirSync(at('bare'));
    copyFileSync(at('unsigned/conformance.json'), at('bare/conformance.json'));
    // A forger edits a signed bundle consistently: a failing requirement now passes, the manifest's hashes recomputed.
    cpSync(at('hostile'), at('forged'), { recursive: true });
    const reportPath = at('forged/conformance.json');
    const report = JSON.parse(readFileSync(reportPath, 'utf8')) as { requirements: Array<{ id: string; verdict: string; failures: unknown[] }> };
    for (const r of report.requirements) if (r.verdict === 'fail') Object.assign(r, { verdict: 'pass', failures: [] });
    writeFileSync(reportPath, JSON.stringify(report));
    const manifestPath = at('forged/manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { files: Array<{ name: string; bytes: number; sha256: string }> };
    for (const f of manifest.files) {
      const bytes = readFileSync(at(`forged/${f.name}`));
      Object.assign(f, { bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
    }
    writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  });

  async function run(args: string[]): Promise<{ code: number; out: string }> {
    const lines: string[] = [];
    const code = await runMatrix(args, (line) => lines.push(line), MADE_UP);
    return { code, out: lines.join('\n') };
  }
  const readMatrix = (out: string) => JSON.parse(readFileSync(join(out, 'matrix.json'), 'utf8')) as Matrix;

  it("signed bundles verify with the trusted key: every column verified, its signer fingerprint the key's, matrix.json follows its schema", async () => {
    const out = at('out-good');
    const { code, out: log } = await run([at('clean'), at('hostile'), at('old'), '--public-key', keys.publicPath, '--out', out]);
    expect(code, log).toBe(0);
    const matrix = readMatrix(out);
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    addFormats.default(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8')) as object);
    expect(validate(matrix) ? [] : validate.errors).toEqual([]);
    expect(matrix.implementations.map((c) => c.trust)).toEqual(['verified', 'verified', 'verified']);
    const fingerprint = keyId(loadPublicKey(keys.publicPath));
    expect(matrix.implementations.every((c) => c.signer?.fingerprint === fingerprint)).toBe(true);
    expect(readFileSync(join(out, 'matrix.html'), 'utf8')).toContain(fingerprint);
    // clean-store at two versions: the newer one is counted, and shows LIM-001 fixed
    const clean = matrix.implementations.filter((c) => c.name === 'clean-store');
    expect(clean.map((c) => [c.version, c.counted])).toEqual([
      ['0.9.0', false],
      ['1.0.0', true],
    ]);
    expect(clean[1]?.history?.fixed).toEqual(['LIM-001']);
    expect(existsSync(join(out, 'badges', 'clean-store.svg'))).toBe(true);
    expect(readFileSync(join(out, 'matrix.md'), 'utf8')).toContain('](badges/clean-store.svg)');
  });

  it('a forged bundle is refused, named, exit 1, and nothing is written', async () => {
    const out = at('out-refused');
    const { code, out: log } = await run([at('clean'), at('forged'), '--public-key', keys.publicPath, '--out', out]);
    expect(code).toBe(1);
    expect(log).toContain(`REFUSED ${at('forged')}`);
    expect(log).toMatch(/changed since signing|was changed/);
    expect(existsSync(join(out, 'matrix.html'))).toBe(false);
    expect(existsSync(join(out, 'matrix.json'))).toBe(false);
  });

  it('with --include-unverified the forged bundle is shown marked NOT VERIFIED: never verified, counted, ranked or badged', async () => {
    const out = at('out-marked');
    const { code, out: log } = await run([at('clean'), at('forged'), '--public-key', keys.publicPath, '--include-unverified', '--out', out]);
    expect(code, log).toBe(0);
    const matrix = readMatrix(out);
    const forged = matrix.implementations.find((c) => c.source === at('forged'));
    expect(forged).toMatchObject({ trust: 'not-verified', counted: false });
    expect(forged?.signer).toBeUndefined();
    expect(forged?.problems.join(' ')).toMatch(/changed since signing/);
    expect(matrix.ranking).toEqual([matrix.implementations.find((c) => c.source === at('clean'))?.key]);
    expect(matrix.requirements.every((r) => r.counts.of === 1)).toBe(true);
    const html = readFileSync(join(out, 'matrix.html'), 'utf8');
    expect(html).toContain('NOT VERIFIED');
    expect(html).toContain(`data-column="${forged?.key}"`);
    expect(html).toMatch(new RegExp(`class="col-not-verified" data-column="${forged?.key}"`));
    expect(readFileSync(join(out, 'matrix.md'), 'utf8')).toMatch(/Not verified, not ranked: /);
  });

  it('a bundle signed by another key, or signed with no key given, is refused', async () => {
    const wrong = await run([at('clean'), '--public-key', other.publicPath, '--out', at('out-wrong')]);
    expect(wrong.code).toBe(1);
    expect(wrong.out).toMatch(/REFUSED .*no trusted key verifies|REFUSED .*no signature verifies/);
    const none = await run([at('clean'), '--out', at('out-none')]);
    expect(none.code).toBe(1);
    expect(none.out).toContain('no --public-key was given');
  });

  it('a directory of trusted keys: any of them may have signed (private keys in it are ignored)', async () => {
    mkdirSync(at('trusted'));
    copyFileSync(other.publicPath, at('trusted/other.pub.pem'));
    copyFileSync(keys.publicPath, at('trusted/ours.pub.pem'));
    copyFileSync(keys.privatePath, at('trusted/secret.pem'));
    const { code, out: log } = await run([at('clean'), '--public-key', at('trusted'), '--out', at('out-dir')]);
    expect(code, log).toBe(0);
    expect(readMatrix(at('out-dir')).implementations[0]?.signer?.fingerprint).toBe(keys.keyid);
  });

  it('unsigned bundles and bare reports only with --allow-unsigned, and marked as such', async () => {
    for (const input of [at('unsigned'), at('bare/conformance.json')]) {
      const refused = await run([input, '--out', at('out-unsigned-refused')]);
      expect(refused.code).toBe(1);
      expect(refused.out).toContain(`REFUSED ${input}`);
      expect(refused.out).toContain('--allow-unsigned');
    }
    const out = at('out-unsigned');
    const { code, out: log } = await run([
      at('unsigned'),
      at('bare/conformance.json'),
      at('clean'),
      '--public-key',
      keys.publicPath,
      '--allow-unsigned',
      '--out',
      out,
    ]);
    expect(code, log).toBe(0);
    const trust = Object.fromEntries(readMatrix(out).implementations.map((c) => [c.source, c.trust]));
    expect(trust).toEqual({ [at('unsigned')]: 'unsigned-bundle', [at('bare/conformance.json')]: 'unsigned-report', [at('clean')]: 'verified' });
    expect(readFileSync(join(out, 'badges', 'plain-store.svg'), 'utf8')).toContain('CONFORMANT (unsigned)');
    expect(readFileSync(join(out, 'badges', 'clean-store.svg'), 'utf8')).not.toContain('unsigned');
  });

  it('a bare report whose verdict does not follow from its requirements is not shown as anything but NOT VERIFIED', async () => {
    mkdirSync(at('edited-bare'));
    const report = JSON.parse(readFileSync(at('hostile/conformance.json'), 'utf8')) as { verdict: { overall: string; label: string } };
    report.verdict.overall = 'conformant';
    report.verdict.label = 'CONFORMANT';
    writeFileSync(at('edited-bare/conformance.json'), JSON.stringify(report));
    const { code, out: log } = await run([
      at('edited-bare/conformance.json'),
      at('clean'),
      '--public-key',
      keys.publicPath,
      '--allow-unsigned',
      '--out',
      at('out-eb'),
    ]);
    expect(code).toBe(1);
    expect(log).toMatch(/REFUSED .*verdict re-derived/);
  });

  it('text from a bundle is inert: an implementation name and evidence carrying markup stay text in HTML and Markdown', async () => {
    const out = at('out-xss');
    const { code, out: log } = await run([at('hostile'), '--public-key', keys.publicPath, '--out', out]);
    expect(code, log).toBe(0);
    const html = readFileSync(join(out, 'matrix.html'), 'utf8');
    expect(html).not.toContain('<script>window.__xss');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;script&gt;window.__xss = 1&lt;/script&gt;');
    expect(html.match(/<script>/g)).toHaveLength(1);
    // self-contained: nothing fetched from anywhere
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).not.toMatch(/@import|url\(http/);
    const md = readFileSync(join(out, 'matrix.md'), 'utf8');
    expect(md).not.toMatch(/<script|<img|\]\(javascript:/);
    expect(md).toContain('&lt;script&gt;');
  });

  it('usage errors exit 2', async () => {
    expect((await run([at('clean')])).code).toBe(2);
    expect((await run(['--out', at('x')])).code).toBe(2);
    expect((await run([at('clean'), '--out', at('x'), '--public-key', at('no-such-key.pem')])).code).toBe(2);
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('--include-unverified');
  });
});
