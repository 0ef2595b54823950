import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { suiteIdentity } from '../../src/certificate/index.ts';
import { ROOT } from '../cli/cli-helpers.ts';

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

  it('a copy with one edited check has another identity', () => {
    const path = join(copy, 'src', 'checks', 'status-checks.ts');
    writeFileSync(path, readFileSync(path, 'utf8').replace('const', 'let'));
    expect(suiteIdentity(copy)).not.toBe(suiteIdentity());
  });
});
