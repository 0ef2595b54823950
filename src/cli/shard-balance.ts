import { basename } from 'node:path';
import type { BaseSequencer, TestSpecification, Vitest } from 'vitest/node';
import type { Profile } from '../config/profiles.ts';

/**
 * Requests each suite file sends, by profile, as measured on a remote run of a fresh reference (an empty
 * store: the listing tests fill it past 100 first) with a second key to exhaust
 * (test/verdicts/cli/shard-balance-table.test.ts measures it again and fails when the table has drifted).
 * Shards are balanced on these, not on file counts: in thorough the four files of generated cases send
 * most of all.
 */
const STANDARD: Readonly<Record<string, number>> = {
  'auth.test.ts': 102,
  'consistency.test.ts': 8,
  'deprecation.test.ts': 4,
  'errors.test.ts': 22,
  'fingerprints.test.ts': 36,
  'http.test.ts': 10,
  'int64.test.ts': 56,
  'limits.test.ts': 103,
  'property.test.ts': 32,
  'property-lists.test.ts': 15,
  'property-invalid.test.ts': 38,
  'rate-limit.test.ts': 139,
  'schemas.test.ts': 16,
  'stateful.test.ts': 40,
  'status-codes.test.ts': 67,
  'versioning.test.ts': 1,
};

export const EXPECTED_REQUESTS: Readonly<Record<Profile, Readonly<Record<string, number>>>> = {
  quick: {
    'auth.test.ts': 10,
    'consistency.test.ts': 2,
    'deprecation.test.ts': 2,
    'errors.test.ts': 3,
    'fingerprints.test.ts': 2,
    'http.test.ts': 2,
    'int64.test.ts': 4,
    'limits.test.ts': 4,
    'property.test.ts': 4,
    'property-lists.test.ts': 2,
    'property-invalid.test.ts': 0,
    'rate-limit.test.ts': 3,
    'schemas.test.ts': 2,
    'stateful.test.ts': 1,
    'status-codes.test.ts': 8,
    'versioning.test.ts': 1,
  },
  standard: STANDARD,
  // thorough adds volume to the generated cases only: the other files send what they send at standard.
  thorough: { ...STANDARD, 'property.test.ts': 1210, 'property-lists.test.ts': 505, 'property-invalid.test.ts': 1030, 'stateful.test.ts': 850 },
};

/** A file the table does not know (a new suite file) weighs as much as the table's median file. */
export function weightOf(file: string, profile: Profile): number {
  const table = EXPECTED_REQUESTS[profile];
  const known = table[basename(file)];
  if (known !== undefined) return known;
  const sorted = Object.values(table).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 1;
}

/**
 * Splits files into `count` shards of about equal expected requests (the heaviest file first, each to
 * the lightest shard so far). Deterministic: every shard machine computes the same split from the same
 * file list, whatever order the list comes in.
 */
export function balanceShards<T>(files: readonly T[], count: number, profile: Profile, pathOf: (file: T) => string): T[][] {
  const shards = Array.from({ length: count }, () => ({ files: [] as T[], load: 0 }));
  const ordered = [...files].sort(
    (a, b) => weightOf(pathOf(b), profile) - weightOf(pathOf(a), profile) || basename(pathOf(a)).localeCompare(basename(pathOf(b))),
  );
  for (const file of ordered) {
    const lightest = shards.reduce((best, shard) => (shard.load < best.load ? shard : best));
    lightest.files.push(file);
    lightest.load += weightOf(pathOf(file), profile);
  }
  return shards.map((s) => s.files);
}

/** The expected requests of each shard: what `--shard` prints and what the balance test checks. */
export function shardLoads(files: readonly string[], count: number, profile: Profile): number[] {
  return balanceShards(files, count, profile, (f) => f).map((shard) => shard.reduce((n, f) => n + weightOf(f, profile), 0));
}

// A mixin's base must take `...args: any[]` (TypeScript's rule); vitest constructs it with its Vitest.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type SequencerClass = new (...args: any[]) => BaseSequencer;

/** The sequencer, with vitest's hash-based `--shard` split replaced by the balanced one. */
export function withBalancedShards<S extends SequencerClass>(Sequencer: S, profile: Profile): S {
  return class BalancedShards extends Sequencer {
    override async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
      const { index, count } = (this as unknown as { ctx: Vitest }).ctx.config.shard ?? { index: 1, count: 1 };
      return balanceShards(files, count, profile, (spec) => spec.moduleId)[index - 1] ?? [];
    }
  };
}
