import { describe, test } from 'vitest';
import type { RequirementResult } from '../../src/report/report-types.ts';
import { runCliInTest } from './support/run-cli.ts';

/**
 * Each path on which a test used to pass without proving anything now either proves its requirement or
 * leaves it untested with a code, so the verdict can never be CONFORMANT on it. Every case is a CLI run
 * against the embedded reference arranged to hit the path.
 */

const RUN_TIMEOUT_MS = 120_000;
const SEED = '20240605';

interface VacuousCase {
  name: string;
  args: string[];
  /** Requirement id → its verdict and, for an untested one, its code. */
  expect: Record<string, { verdict: RequirementResult['verdict']; code?: string; reason?: RegExp; note?: RegExp }>;
  overall: string;
}

const CASES: readonly VacuousCase[] = [
  {
    name: 'every status page already full (500 pets of others): LIM-006 and CON-003 are untested, not passed',
    args: ['--reference-variants', 'prefilled-store', '--only', 'LIM-006,CON-003'],
    expect: { 'LIM-006': { verdict: 'skipped', code: 'precondition' }, 'CON-003': { verdict: 'skipped', code: 'precondition' } },
    overall: 'partial',
  },
  {
    name: 'error bodies that are not JSON: ERR-002 and ERR-003 have nothing to judge (ERR-001 fails on them)',
    args: ['--reference-faults', 'error-not-json', '--only', 'ERR-002,ERR-003'],
    expect: {
      'ERR-002': { verdict: 'skipped', code: 'precondition' },
      'ERR-003': { verdict: 'skipped', code: 'precondition' },
      'ERR-001': { verdict: 'fail' },
    },
    overall: 'not-conformant',
  },
  {
    name: 'read-only on an empty store: STA-012 sends what it can, then says its near-id probes were not sent',
    args: ['--read-only', '--only', 'STA-012'],
    expect: { 'STA-012': { verdict: 'skipped', code: 'precondition' } },
    overall: 'partial',
  },
  {
    name: 'categories restricted with --category-ids: INT-001 still sends the int64 edges and passes on the given ids',
    args: ['--reference-variants', 'restricted-categories', '--category-ids', '1,2,3', '--only', 'INT-001'],
    expect: { 'INT-001': { verdict: 'pass' } },
    overall: 'partial',
  },
  {
    // limit-clamped answers 200 to limit=abc too (a liberty): with limit-ignored, no limit is honoured or refused.
    name: 'read-only on an empty store whose server ignores limit: LIM-001/003/004/008 and DEP-006 are untested, never passed',
    args: ['--read-only', '--reference-variants', 'limit-clamped', '--reference-faults', 'limit-ignored', '--only', 'LIM-001,LIM-003,LIM-004,LIM-008,DEP-006'],
    expect: {
      'LIM-001': { verdict: 'skipped', code: 'precondition', reason: /the store is empty and --read-only forbids creating/ },
      'LIM-003': { verdict: 'skipped', code: 'precondition', reason: /the store is empty and --read-only forbids creating/ },
      'LIM-004': { verdict: 'skipped', code: 'precondition', reason: /the store is empty and --read-only forbids creating/ },
      'LIM-008': { verdict: 'skipped', code: 'precondition', reason: /the store is empty and --read-only forbids creating/ },
      // Half of DEP-006 is createPet, which read-only mode never sends: untested for that reason.
      'DEP-006': { verdict: 'skipped', code: 'read-only', reason: /createPet is not sent/ },
    },
    overall: 'partial',
  },
  {
    name: 'RateLimit and RateLimit-Policy left out (allowed): RATE-009 passes, and the report says they were not sent',
    args: ['--reference-variants', 'no-ietf-ratelimit-fields', '--only', 'RATE-009'],
    expect: { 'RATE-009': { verdict: 'pass', note: /RateLimit and RateLimit-Policy not sent/ } },
    overall: 'partial',
  },
  {
    name: 'a store that stops listing at 50: LIM-002 catches it at the standard profile',
    args: ['--profile', 'standard', '--reference-faults', 'limit-max-50', '--only', 'LIM-002'],
    expect: { 'LIM-002': { verdict: 'fail' } },
    overall: 'not-conformant',
  },
];

describe('vacuous passes: a test proves its requirement or skips with a code', () => {
  for (const c of CASES) {
    test.concurrent(
      c.name,
      async ({ expect, onTestFinished }) => {
        const run = await runCliInTest({ onTestFinished }, ['--seed', SEED, ...c.args], { timeoutMs: RUN_TIMEOUT_MS, label: 'vacuous' });
        const report = run.report;
        const why = `${report?.verdict.label}: ${report?.verdict.why}\n${run.stdout.slice(-1500)}`;
        expect(report, why).toBeDefined();
        expect(report?.harnessErrors ?? [], why).toEqual([]);
        for (const [id, wanted] of Object.entries(c.expect)) {
          const result = report?.requirements.find((r) => r.id === id);
          expect({ id, verdict: result?.verdict, code: result?.untestedCode }, why).toEqual({ id, verdict: wanted.verdict, code: wanted.code });
          if (wanted.reason) expect(result?.reason, id).toMatch(wanted.reason);
          if (wanted.note) expect(result?.notes.join('\n'), id).toMatch(wanted.note);
        }
        if (c.expect['INT-001']) {
          // The edges went out although the target restricts categories.
          const sent = report?.requirements.find((r) => r.id === 'INT-001')?.tests.reduce((n, t) => n + t.requests, 0) ?? 0;
          expect(sent, why).toBeGreaterThanOrEqual(5);
        }
        // --only leaves the rest untested: never CONFORMANT; a failure found wins.
        expect(report?.verdict.overall, why).toBe(c.overall);
      },
      RUN_TIMEOUT_MS + 30_000,
    );
  }
});
