import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../src/catalog/catalog.ts';
import { suiteFilesFor } from '../src/cli/suite-files.ts';
import { isHarnessError } from '../src/errors.ts';
import { skipDecision } from '../src/harness/selection.ts';
import type { RunContext } from '../src/harness/run-context.ts';
import { decideRequirement } from '../src/report/requirement-verdict.ts';
import { checkSelection, isSelected, notSelectedReason } from '../src/config/requirement-selection.ts';

const catalog = loadCatalog();
const ROOT = new URL('..', import.meta.url).pathname;

describe('--only, read in one place', () => {
  it('selects by id or by area, and everything when empty', () => {
    const auth = { id: 'AUTH-001', area: 'auth' };
    expect(isSelected([], auth)).toBe(true);
    expect(isSelected(['auth'], auth)).toBe(true);
    expect(isSelected(['AUTH-001'], auth)).toBe(true);
    expect(isSelected(['RATE-001', 'limits'], auth)).toBe(false);
    expect(isSelected(['AUTH'], auth)).toBe(false);
  });

  it('refuses a name that is neither an id nor an area, naming it', () => {
    expect(() => checkSelection(['auth', 'RATE-001'], catalog)).not.toThrow();
    let message = '';
    try {
      checkSelection(['auth', 'athu'], catalog);
    } catch (error) {
      expect(isHarnessError(error) && error.code).toBe('ERR_CONFIG');
      message = (error as Error).message;
    }
    expect(message).toMatch(/^--only names no requirement or area: athu \(areas: /);
  });

  it('the harness, the report and the suite files a run loads agree on every requirement', () => {
    const only = ['auth', 'RATE-004'];
    const run = { only, replay: undefined, deadline: Number.POSITIVE_INFINITY, profile: 'thorough', readOnly: false, exhaust: true } as unknown as RunContext;
    const files = suiteFilesFor(only, catalog, ROOT) ?? [];
    expect(files.length).toBeGreaterThan(0);
    for (const requirement of catalog.requirements.filter((r) => r.coverage !== 'not-covered')) {
      const selected = isSelected(only, requirement);
      expect(skipDecision(run, requirement, {})?.reason).toBe(selected ? undefined : notSelectedReason(only));
      const decision = decideRequirement(requirement, [], [], { strict: false, only, plan: 'enterprise' });
      if (!selected) expect(decision.reason).toBe(notSelectedReason(only));
      else expect(decision.reason).not.toBe(notSelectedReason(only));
    }
    expect(notSelectedReason(only)).toBe('not selected (--only auth,RATE-004)');
  });
});
