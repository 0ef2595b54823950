// The figures of a mutation run, from Stryker's JSON report (mutation-testing-report-schema): the one
// `npm run mutation` just wrote, or a kept one (`npm run mutation -- --score <file.json.gz>`).
//
// score: detected (killed or timed out) / (all − ignored); the ignored share: ignored / all. The reviewed
// entries of mutation/equivalents.yaml are the only ignored mutants, so the ignored share is the share of
// the mutated files' mutants excluded from the score, each by a reviewed reason. The ignored are counted
// by kind too, read from each mutant's statusReason: equivalent (no client can tell it apart) and
// permitted (a client can, but the interface allows both): two different claims, never one sum.
import { gunzipSync, gzipSync } from 'node:zlib';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

/** A report's mutants, each with its project-relative file. */
export function mutantsOf(report) {
  return Object.entries(report.files).flatMap(([file, { mutants }]) => mutants.map((m) => ({ ...m, file: file.replace(/^.*?(src\/)/, '$1') })));
}

/** Reads a report, gzipped or not. */
export function readReport(file) {
  const bytes = readFileSync(file);
  return JSON.parse((file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8'));
}

/** The commit a run measures, read before it starts: short hash, `-dirty` with uncommitted src, suites or mutation changes. */
export function commitLabel() {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'suites', 'mutation'], { encoding: 'utf8' }).trim();
    return dirty ? `${commit}-dirty` : commit;
  } catch {
    return 'nocommit'; // not a git checkout: the report is kept without a commit
  }
}

/**
 * Keeps a run's report, gzipped, beside the others (reports/ is not in git):
 * reports/mutation/<date>-<commit>-<run>.json.gz, the commit as read when the run started. Returns the path.
 */
export function keepReport(file, run, { dir = 'reports/mutation', now = new Date(), commit = commitLabel(), stages = '' } = {}) {
  const stamp = now.toISOString().replace(/[:.]/g, '-').slice(0, 19);
  const kept = `${dir}/${stamp}-${commit}-${run}.json.gz`;
  mkdirSync(dir, { recursive: true });
  // The stage that detected each mutant rides along as an extra top-level field of Stryker's report.
  const report = JSON.parse(readFileSync(file, 'utf8'));
  if (stages) report.detectingStages = stagesOf(stages);
  writeFileSync(kept, gzipSync(JSON.stringify(report)));
  return kept;
}

/** The stage log (`<mutant id> <stage>` lines, mutation/stages.mjs) as an object: mutant id → stage. */
export function stagesOf(log) {
  return Object.fromEntries(
    log
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' ')),
  );
}

/** The figures of a report's mutants. */
export function figures(mutants) {
  const count = (...statuses) => mutants.filter((m) => statuses.includes(m.status)).length;
  const detected = count('Killed', 'Timeout');
  const undetected = count('Survived', 'NoCoverage');
  const ignored = count('Ignored');
  const byReason = {};
  const byKind = { equivalent: 0, permitted: 0, other: 0 };
  for (const m of mutants.filter((x) => x.status === 'Ignored')) {
    const tag = /^\[(equivalent|permitted) ([a-z0-9-]+)\]/.exec(m.statusReason ?? '');
    const reason = tag?.[2] ?? '(not a reviewed entry)';
    byReason[reason] = (byReason[reason] ?? 0) + 1;
    byKind[tag?.[1] ?? 'other'] += 1;
  }
  return {
    all: mutants.length,
    detected,
    killed: count('Killed'),
    timeout: count('Timeout'),
    undetected,
    invalid: count('CompileError', 'RuntimeError'),
    ignored,
    byReason,
    byKind,
    score: detected + undetected ? (100 * detected) / (detected + undetected) : 100,
    ignoredShare: mutants.length ? (100 * ignored) / mutants.length : 0,
  };
}

/** The lines that state a report's figures, per file too. */
export function scoreLines(mutants, stages) {
  const f = figures(mutants);
  const lines = [
    `${f.all} mutants: detected ${f.detected} (killed ${f.killed}, timeout ${f.timeout}), survived ${f.undetected}, invalid ${f.invalid}, ignored ${f.ignored}`,
    `score ${f.score.toFixed(2)}% (detected / (all − ignored) = ${f.detected} / ${f.all - f.ignored}); ignored ${f.ignoredShare.toFixed(1)}% of all`,
    `ignored by kind: equivalent ${f.byKind.equivalent} (no client can tell), permitted ${f.byKind.permitted} (the interface allows both)${f.byKind.other ? `, other ${f.byKind.other}` : ''}`,
  ];
  if (stages) {
    // Killed mutants by the stage that detected them (time-outs are Stryker's, not a stage's).
    const by = {};
    for (const m of mutants.filter((x) => x.status === 'Killed')) by[stages[m.id] ?? '(not recorded)'] = (by[stages[m.id] ?? '(not recorded)'] ?? 0) + 1;
    lines.push(
      `killed by stage: ${Object.entries(by)
        .map(([stage, n]) => `${stage} ${n}`)
        .join(', ')}`,
    );
  }
  for (const [reason, n] of Object.entries(f.byReason).sort((a, b) => b[1] - a[1])) lines.push(`  ${String(n).padStart(4)}  ${reason}`);
  const files = [...new Set(mutants.map((m) => m.file))].sort();
  for (const file of files) {
    const g = figures(mutants.filter((m) => m.file === file));
    lines.push(`  ${file}: ${g.all} mutants, ${g.score.toFixed(1)}% detected, ${g.ignored} ignored (${g.ignoredShare.toFixed(0)}%), ${g.undetected} survived`);
  }
  return lines;
}
