import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { suiteIdentity } from '../../src/certificate/index.ts';
import { ROOT } from '../support/cli.ts';

describe('suite identity: a digest of the suite content, not of a version number', () => {
  const dir = mkdtempSync(join(tmpdir(), 'suite-identity-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const copy = join(dir, 'copy');
  for (const part of ['src', 'suites', 'spec', 'vitest.config.ts']) cpSync(join(ROOT, part), join(copy, part), { recursive: true });

  it('a copy of the same files (a clone, an installed package) has the same identity; output and stray files do not count', () => {
    const own = suiteIdentity();
    expect(own).toMatch(/^[0-9a-f]{64}$/);
    writeFileSync(join(copy, 'src', '.DS_Store'), 'junk');
    writeFileSync(join(copy, 'spec', 'notes.txt'), 'an editor left this');
    expect(suiteIdentity(copy)).toBe(own);
  });

  it("the packed package's form has the clone's identity: no launcher of the clone, dist/ and a README beside it", () => {
    // `files` in package.json leaves src/bin/animal-store-conformance.js out; the package adds dist/.
    const packed = join(dir, 'packed');
    for (const part of ['src', 'suites', 'spec', 'vitest.config.ts']) cpSync(join(ROOT, part), join(packed, part), { recursive: true });
    rmSync(join(packed, 'src', 'bin', 'animal-store-conformance.js'));
    mkdirSync(join(packed, 'dist', 'bin'), { recursive: true });
    writeFileSync(join(packed, 'dist', 'bin', 'cli.js'), '// compiled');
    writeFileSync(join(packed, 'README.md'), '# readme');
    expect(suiteIdentity(packed)).toBe(suiteIdentity());
  });

  it('a copy with one edited check has another identity', () => {
    const path = join(copy, 'src', 'checks', 'status-checks.ts');
    writeFileSync(path, readFileSync(path, 'utf8').replace('const', 'let'));
    expect(suiteIdentity(copy)).not.toBe(suiteIdentity());
  });
});
