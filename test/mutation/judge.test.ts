import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { VARIANTS } from '../../src/reference/variants.ts';

const targets = (await import('../../mutation/targets.mjs' as string)) as {
  VARIANT_RUNS: string[][];
  VARIANT_ARGS: Record<string, string[]>;
  CORE_VARIANTS: string[];
  CORE_VARIANT_RUN: string[];
  VARIANT_WARNINGS: Record<string, string[]>;
  VARIANT_DAY_RUNS: [string, string][];
  SETUPS: string[];
  runStages(options: { variants: boolean }): { name: string; command: string; env: Record<string, string> }[];
};

/** mutation/judge.mjs at the quick profile against the plain-429-body variant, which warns ERR-004 by design. */
function judge(...extra: string[]): { status: number | null; stdout: string } {
  const dir = mkdtempSync(join(tmpdir(), 'judge-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const args = ['mutation/judge.mjs', '--profile', 'quick', '--strict', '--fail-fast', '--seed', '20240605', '--report-dir', dir];
  const run = spawnSync(process.execPath, [...args, '--reference-variants', 'plain-429-body', ...extra], { encoding: 'utf8', timeout: 120_000 });
  return { status: run.status, stdout: run.stdout };
}

describe('mutation/judge.mjs --expected-warnings (the variant run)', () => {
  it('passes a variant whose only warning is the one it earns by design', () => {
    expect(judge('--expected-warnings', 'ERR-004').status).toBe(0);
  });

  it('excuses only the warnings it names: another name leaves the variant detected, and --strict alone stops it', () => {
    const other = judge('--expected-warnings', 'INT-005');
    expect(other.status).toBe(1);
    expect(other.stdout).toContain('SHOULD ERR-004 warned');
    expect(judge().status).toBe(1);
  });
});

describe('the variant run starts each variant as the valid-variants test does', () => {
  it('starts every variant whose choice lives in the variant code: each variant is in exactly one run group or is a core option', () => {
    const placed = [...targets.VARIANT_RUNS.flat(), ...targets.CORE_VARIANTS];
    expect([...placed].sort()).toEqual(VARIANTS.map((v) => v.name).sort());
  });

  it("passes every variant's suite settings (its suiteConfig), and only those", () => {
    const needed = Object.fromEntries(
      VARIANTS.filter((v) => v.suiteConfig?.categoryIds).map((v) => [v.name, ['--category-ids', (v.suiteConfig?.categoryIds ?? []).join(',')]]),
    );
    const started = new Set(targets.VARIANT_RUNS.flat());
    expect(Object.fromEntries(Object.entries(needed).filter(([name]) => started.has(name)))).toEqual(targets.VARIANT_ARGS);
  });

  it('runs the sliding log again where the day binds, since under the default setup no request reaches its day', () => {
    expect(targets.VARIANT_DAY_RUNS.map(([, setup]) => setup).sort()).toEqual(targets.SETUPS.filter((setup) => setup !== 'default').sort());
    const stages = targets.runStages({ variants: true });
    for (const [variant, setup] of targets.VARIANT_DAY_RUNS) {
      expect(targets.VARIANT_RUNS.flat()).toContain(variant);
      const stage = stages.find((s) => s.env.CONFORMANCE_EMBEDDED_SETUP === setup);
      expect(stage?.command).toContain(`--reference-variants ${variant}`);
    }
  });

  it('the reference run starts only core variants, none of which earns a warning or needs suite settings', () => {
    expect(targets.CORE_VARIANT_RUN.length).toBeGreaterThan(0);
    for (const name of targets.CORE_VARIANT_RUN) {
      expect(targets.CORE_VARIANTS).toContain(name);
      expect(targets.VARIANT_WARNINGS[name]).toBeUndefined();
      expect(targets.VARIANT_ARGS[name]).toBeUndefined();
    }
  });
});
