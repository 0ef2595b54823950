import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPrivateKey, writeKeyPair } from '../../src/certificate/index.ts';
import type { Matrix } from '../../src/matrix/matrix-types.ts';
import { runMatrix } from '../../src/matrix/run-matrix.ts';
import { MADE_UP } from '../certificate/logged-run.ts';
import { makeBundle } from '../support/matrix-runs.ts';

/** The matrix names what each bundle's signature is about, and nothing in it reorders a line or passes for a certificate. */
describe('matrix: subject digests, inert bidi controls, unsigned badges', () => {
  const dir = mkdtempSync(join(tmpdir(), 'matrix-subjects-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const at = (name: string) => join(dir, name);
  const DIGEST = 'cd'.repeat(32);
  const BIDI = 'evil\u202Egnp.exe\u2066\u200F@1.0.0';
  let keys: ReturnType<typeof writeKeyPair>;

  beforeAll(() => {
    keys = writeKeyPair(at('keys'));
    const signKey = loadPrivateKey(keys.privatePath);
    makeBundle(at('signed'), {}, { implementation: 'digest-store@1.0.0', implementationDigest: DIGEST, signKey });
    makeBundle(at('bidi'), { failing: ['AUTH-002'] }, { implementation: BIDI, signKey });
    makeBundle(at('unsigned'), {}, { implementation: 'plain-store@2.0.0' });
  });

  async function matrixOf(out: string): Promise<{ code: number; log: string }> {
    const lines: string[] = [];
    const code = await runMatrix(
      [at('signed'), at('bidi'), at('unsigned'), '--public-key', keys.publicPath, '--allow-unsigned', '--out', out],
      (line) => lines.push(line),
      MADE_UP,
    );
    return { code, log: lines.join('\n') };
  }

  it('each column carries its subject digest, in matrix.json and matrix.md', async () => {
    const out = at('out-digest');
    const { code, log } = await matrixOf(out);
    expect(code, log).toBe(0);
    const matrix = JSON.parse(readFileSync(join(out, 'matrix.json'), 'utf8')) as Matrix;
    expect(matrix.implementations.find((c) => c.name === 'digest-store')?.implementationDigest).toBe(`sha256:${DIGEST}`);
    expect(readFileSync(join(out, 'matrix.md'), 'utf8')).toContain(`digest-store 1.0.0 (sha256:${DIGEST.slice(0, 12)}…)`);
  });

  it('bidi controls never reach matrix.md, matrix.json or the badges raw', async () => {
    const out = at('out-bidi');
    await matrixOf(out);
    const files = ['matrix.md', 'matrix.json', 'matrix.html', ...readdirSync(join(out, 'badges')).map((b) => join('badges', b))];
    for (const file of files)
      expect({ file, raw: /[\u200E\u200F\u202A-\u202E\u2066-\u2069]/.test(readFileSync(join(out, file), 'utf8')) }).toEqual({ file, raw: false });
    expect(readFileSync(join(out, 'matrix.md'), 'utf8')).toContain('evil\\\\u202Egnp.exe\\\\u2066\\\\u200F');
    const matrix = JSON.parse(readFileSync(join(out, 'matrix.json'), 'utf8')) as Matrix;
    expect(matrix.implementations.some((c) => c.name === 'evil\u202Egnp.exe\u2066\u200F')).toBe(true);
  });

  it("an unsigned bundle's badge says unsigned in its alt text as in its image", async () => {
    const out = at('out-badges');
    await matrixOf(out);
    const md = readFileSync(join(out, 'matrix.md'), 'utf8');
    const row = md.split('\n').find((line) => line.includes('plain-store'));
    expect(row).toMatch(/!\[CONFORMANT \(unsigned\)\]\(badges\/[^)]+\.svg\)/);
    const svg = readdirSync(join(out, 'badges')).find((b) => b.includes('plain-store'));
    expect(readFileSync(join(out, 'badges', svg ?? ''), 'utf8')).toContain('(unsigned)');
  });
});
