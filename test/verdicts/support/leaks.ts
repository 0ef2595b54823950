import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CliRun } from './run-cli.ts';

/**
 * The forms in which a key can leak. The auth tests send near forms of the key on purpose (without its
 * last character, with one appended, in swapped case, its tail rotated), and a target may echo them, so
 * the test is for the key's first two thirds in any letter case (also percent-decoded), and for the
 * base64 of the key as a Basic header carries it (key, key:, :key); and for the stem's letters and digits
 * in a row once every other character is removed (a key echoed split by dots or dashes).
 */
function leakForms(key: string): Array<{ label: string; test: (text: string) => boolean }> {
  const stem = key.slice(0, Math.max(12, Math.ceil((key.length * 2) / 3))).toLowerCase();
  // Whole base64 quanta of the stem: the same text whatever follows it.
  const quanta = Math.floor(stem.length / 3) * 4;
  const base64 = [
    ['key', key],
    ['key:', `${key}:`],
    [':key', `:${key}`],
  ].map(([label, value]) => ({ label: label!, form: Buffer.from(value!, 'utf8').toString('base64').slice(0, quanta) }));
  const stemSkeleton = skeletonOf(stem);
  return [
    {
      label: `the key or a near form of it (its first ${stem.length} characters, any case)`,
      test: (text) => text.toLowerCase().includes(stem) || decodeURIComponentSafe(text).toLowerCase().includes(stem),
    },
    {
      label: `the key's first ${stem.length} characters split by separators (their letters and digits in a row once the rest is removed)`,
      test: (text) => skeletonOf(text).includes(stemSkeleton),
    },
    ...base64.map(({ label, form }) => ({ label: `base64 of "${label}" (as in a Basic header)`, test: (text: string) => text.includes(form) })),
  ];
}

/** A text's letters and digits alone, lower-cased: what a reader sees once separators are stripped. */
function skeletonOf(text: string): string {
  return text.replace(/[^a-z0-9]/gi, '').toLowerCase();
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Where the key shows in the run's output or written files, as "place: form" lines. */
export function findLeaks(key: string, run: Pick<CliRun, 'stdout' | 'stderr' | 'reportDir'>): string[] {
  const places: Array<[string, string]> = [
    ['stdout', run.stdout],
    ['stderr', run.stderr],
    ...filesUnder(run.reportDir).map((file): [string, string] => [file, readFileSync(file, 'utf8')]),
  ];
  const leaks: string[] = [];
  for (const [place, text] of places) {
    for (const form of leakForms(key)) if (form.test(text)) leaks.push(`${place}: ${form.label}`);
  }
  return leaks;
}
