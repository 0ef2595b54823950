import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { REPO_ROOT, progress } from './lib/paths.ts';
import { fmt, median } from './lib/stats.ts';

/**
 * `tsx bench/redact-replay.ts --har <exchanges.har> [--runs 5] [--src <dir>]...`: the CPU the redactor
 * spends on a run's texts. Each run is a fresh process (as a vitest worker is: V8 compiles and optimises
 * the scans anew), which builds a redactor per key as a worker does and then hands it every text the
 * recorder would (record.ts): the URL, the curl line, the header names and values side by side, the
 * request and response bodies through recordedBody. The key each exchange was sent with is put back where
 * the log shows `***`. Give a full log (`--certify <dir>` writes one; a report directory's entries are
 * summarised, without headers or bodies).
 *
 * Each `--src` is a source tree (default: this one's `src`) or a built one (`dist/`, which the run's
 * workers load) whose client/redact is measured; with
 * several, their runs are interleaved (A, B, A, B, …) so that a loaded machine weighs on each alike.
 * `--cpu-prof <dir>` writes each run's CPU profile there.
 */

/** One exchange's texts, as record.ts hands them to the redactor, and the key its client holds. */
interface ReplayEntry {
  key: string;
  singles: string[];
  lists: string[][];
  bodies: string[];
}

interface HarHeader {
  name: string;
  value: string;
}

interface HarEntry {
  _curl?: string;
  request: { url: string; headers: HarHeader[]; postData?: { text?: string } };
  response: { headers: HarHeader[]; content: { text?: string } };
}

/** Keys shaped as the embedded run's (src/harness/target.ts), by the shell variable a curl line names. */
const KEYS: Record<string, string> = {
  API_KEY: 'embedded-3f9c2a7be01d45c8a6e2f031',
  EXHAUST_API_KEY: 'embedded-exhaust-9b1e04d7c3a85f26e7d0b4c1',
  FREE_PLAN_KEY: 'embedded-free-5d70e3a91c4fb28e06a7d3c2',
  PAIR_API_KEY: 'embedded-pair-c8e21f5a07b3d94e6f10a2b7',
};

function keyOf(curl: string | undefined): string {
  const variable = /\$([A-Z_]+KEY)\b/.exec(curl ?? '')?.[1];
  return KEYS[variable ?? 'API_KEY'] ?? KEYS.API_KEY!;
}

function entriesOf(har: string): ReplayEntry[] {
  const log = JSON.parse(readFileSync(har, 'utf8')) as { log: { entries: HarEntry[] } };
  return log.log.entries.map((entry) => {
    const key = keyOf(entry._curl);
    const restore = (value: string) => value.replaceAll('***', key);
    const request = entry.request.headers;
    const response = entry.response.headers;
    return {
      key,
      singles: [entry.request.url, ...(entry._curl ? [entry._curl] : [])],
      lists: [request.map((h) => h.name), request.map((h) => restore(h.value)), response.map((h) => h.name), response.map((h) => h.value)],
      bodies: [entry.request.postData?.text, entry.response.content.text].filter((text): text is string => text !== undefined),
    };
  });
}

type RedactModule = typeof import('../src/client/redact.ts');

/** One replay in this process: the CPU it took, in ms, and a digest of what it gave (equal across trees). */
async function child(har: string, src: string): Promise<void> {
  const entries = entriesOf(har);
  // A built tree (dist/, as the run's workers load it) or a source tree.
  const built = join(src, 'client', 'redact.js');
  const redact = (await import(pathToFileURL(existsSync(built) ? built : join(src, 'client', 'redact.ts')).href)) as RedactModule;
  const start = process.cpuUsage();
  const bySecret = redact.redactorsBySecret();
  const redactors = new Map(Object.values(KEYS).map((key) => [key, redact.createRedactorOf([key], bySecret)]));
  let chars = 0;
  for (const entry of entries) {
    const redactor = redactors.get(entry.key)!;
    for (const text of entry.singles) chars += redactor(text).length;
    for (const list of entry.lists) for (const text of redactor.pieces(list)) chars += text.length;
    for (const text of entry.bodies) chars += redact.recordedBody(text, redactor).body.length;
  }
  const used = process.cpuUsage(start);
  process.stdout.write(`${JSON.stringify({ cpuMs: (used.user + used.system) / 1000, chars, entries: entries.length })}\n`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      har: { type: 'string' },
      runs: { type: 'string', default: '5' },
      src: { type: 'string', multiple: true },
      child: { type: 'boolean', default: false },
      'cpu-prof': { type: 'string' },
    },
  });
  if (!values.har) throw new Error('--har <exchanges.har> is required (a full log: --certify <dir> writes one)');
  const srcs = (values.src ?? [join(REPO_ROOT, 'src')]).map((dir) => resolve(dir));
  if (values.child) return child(values.har, srcs[0]!);
  const runs = Number(values.runs);
  const results = srcs.map(() => [] as { cpuMs: number; chars: number }[]);
  for (let run = 0; run < runs; run += 1) {
    srcs.forEach((src, which) => {
      const prof = values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']] : [];
      const out = spawnSync(process.execPath, [...prof, '--import', 'tsx', fileURLToPath(import.meta.url), '--child', '--har', values.har!, '--src', src], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
      });
      if (out.status !== 0) throw new Error(`replay of ${src} failed: ${out.stderr}`);
      results[which]!.push(JSON.parse(out.stdout.trim().split('\n').pop()!) as { cpuMs: number; chars: number });
    });
    progress(`run ${run + 1} of ${runs}`);
  }
  process.stdout.write('| source | CPU ms, median | runs | characters out |\n|---|---|---|---|\n');
  srcs.forEach((src, which) => {
    const cpu = results[which]!.map((result) => result.cpuMs);
    const chars = [...new Set(results[which]!.map((result) => result.chars))].join(', ');
    process.stdout.write(`| ${src} | ${fmt(median(cpu))} | ${cpu.map((ms) => fmt(ms)).join(', ')} | ${chars} |\n`);
  });
}

await main();
