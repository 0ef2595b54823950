import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/catalog.ts';
import { PACKAGE_ROOT } from '../../src/cli/paths.ts';
import { suiteFilesFor } from '../../src/cli/suite-files.ts';

const catalog = loadCatalog();

describe('suiteFilesFor: the suite files an --only selection loads', () => {
  const root = mkdtempSync(join(tmpdir(), 'suite-files-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'suites', 'support'), { recursive: true });
  writeFileSync(join(root, 'suites', 'auth.test.ts'), `conformance('AUTH-001', 'x', async () => {});\n`);
  writeFileSync(join(root, 'suites', 'shared.test.ts'), `import { declare } from './support/declare.ts';\ndeclare();\n`);
  writeFileSync(join(root, 'suites', 'support', 'declare.ts'), `export const declare = () => conformance('SCH-001', 'x', async () => {});\n`);
  writeFileSync(join(root, 'suites', 'other.test.ts'), `conformance('LIM-001', 'x', async () => {});\n`);

  it('loads only the files that name a selected requirement, through their support imports too', () => {
    expect(suiteFilesFor(['AUTH-001'], catalog, root)).toEqual(['suites/auth.test.ts']);
    expect(suiteFilesFor(['SCH-001'], catalog, root)).toEqual(['suites/shared.test.ts']);
    expect(suiteFilesFor(['AUTH-001', 'LIM-001'], catalog, root)?.sort()).toEqual(['suites/auth.test.ts', 'suites/other.test.ts']);
  });

  it('loads every file when there is no selection, or a selected requirement is named nowhere', () => {
    expect(suiteFilesFor([], catalog, root)).toBeUndefined();
    expect(suiteFilesFor(['STA-001'], catalog, root)).toBeUndefined();
    // An area: every in-scope requirement of it must be found, else all files load.
    expect(suiteFilesFor(['auth'], catalog, root)).toBeUndefined();
  });

  it('on the real suites: a requirement selects its own file, an area its file', () => {
    expect(suiteFilesFor(['AUTH-001'], catalog, PACKAGE_ROOT)).toEqual(['suites/auth.test.ts']);
    expect(suiteFilesFor(['rate-limit'], catalog, PACKAGE_ROOT)).toContain('suites/rate-limit.test.ts');
    expect(suiteFilesFor(['INT-001'], catalog, PACKAGE_ROOT)).toContain('suites/int64.test.ts');
  });
});
