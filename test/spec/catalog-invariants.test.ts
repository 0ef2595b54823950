import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog, parseCatalog } from '../../src/catalog/catalog.ts';
import { PACKAGE_ROOT } from '../../src/cli/paths.ts';
import { FAULTS } from '../../src/reference/index.ts';
import { catalogViolations } from './catalog-invariants.ts';

/** Every suite test's title, as vitest collects them (the conformance project, nothing run). */
function suiteTitles(): string[] {
  const out = execFileSync(join(PACKAGE_ROOT, 'node_modules', '.bin', 'vitest'), ['list', '--project', 'conformance', '--json'], {
    cwd: PACKAGE_ROOT,
    env: { ...process.env, NO_COLOR: '1' },
    maxBuffer: 16 * 1024 * 1024,
  }).toString();
  return (JSON.parse(out) as Array<{ name: string }>).map((t) => t.name);
}

describe('catalog invariants: requirements, suite tests and faults agree', () => {
  it('hold for the real catalog, suites and faults', () => {
    const titles = suiteTitles();
    expect(titles.length).toBeGreaterThan(60);
    expect(catalogViolations(loadCatalog(), titles, FAULTS)).toEqual([]);
  }, 60_000);

  it('catch each kind of violation', () => {
    const catalog = parseCatalog(`
version: 1
areas: { auth: Auth }
requirements:
  - { id: AUTH-001, area: auth, level: MUST, source: s, text: t }
  - { id: AUTH-002, area: auth, level: MUST, source: s, text: t }
  - { id: AUTH-003, area: auth, level: MAY, source: s, text: t, coverage: not-covered, reason: not shown }
open: []
`);
    const violations = catalogViolations(catalog, ['AUTH-001 works', 'AUTH-009 ghost', 'untitled test', 'AUTH-003 out of scope'], [
      { name: 'ok-fault', detectedBy: ['AUTH-001'] },
      { name: 'ghost-fault', detectedBy: ['AUTH-042'] },
      { name: 'untestable-fault', detectedBy: ['AUTH-003'] },
      { name: 'silent-fault', detectedBy: [] },
    ]);
    expect(violations).toEqual([
      'suite test "AUTH-009 ghost" names AUTH-009, which the catalog does not hold',
      'suite test "untitled test" does not start with a requirement id',
      'AUTH-002 is declared tested but no suite test proves it',
      'AUTH-003 is declared not covered but a suite test names it',
      'fault ghost-fault names AUTH-042, which the catalog does not hold',
      'fault untestable-fault names AUTH-003, which is not covered',
      'fault silent-fault names no requirement that detects it',
    ]);
  });
});
