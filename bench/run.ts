import { parseArgs } from 'node:util';
import { type Row, renderTable } from './parts/common.ts';
import { benchAbuse } from './parts/abuse.ts';
import { benchEmbedded } from './parts/embedded.ts';
import { FAULT_SETS, type FaultProfile, type FaultSet, benchFaults } from './parts/faults.ts';
import { benchProfiles } from './parts/profiles.ts';
import { benchRss } from './parts/rss.ts';
import { benchServer } from './parts/server.ts';
import { benchStartup } from './parts/startup.ts';
import { progress } from './lib/paths.ts';

/**
 * `npm run bench [-- --only server,rss,startup,embedded,profiles,faults,abuse]`: one markdown table on stdout,
 * progress on stderr. Every load is bounded in count and time and stays on 127.0.0.1. The abuse part
 * makes the bench exit 1 when the reference server broke a rule (5xx, hang, crash, a missing header).
 * `--fault-sets existing,independent,outside` picks the fault sets the faults part counts, each in its own rows.
 */
const PARTS = ['server', 'rss', 'startup', 'embedded', 'profiles', 'faults', 'abuse'] as const;
type Part = (typeof PARTS)[number];

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      rounds: { type: 'string', default: '3' },
      duration: { type: 'string', default: '5' },
      connections: { type: 'string', default: '10' },
      pets: { type: 'string', default: '100000' },
      runs: { type: 'string', default: '3' },
      parallel: { type: 'string', default: '2' },
      'abuse-per-family': { type: 'string', default: '1500' },
      'fault-profiles': { type: 'string', default: 'quick,standard' },
      'fault-sets': { type: 'string', default: 'existing,independent,outside' },
      seed: { type: 'string', default: '20240605' },
    },
  });
  const only = (values.only ?? PARTS.join(',')).split(',').map((s) => s.trim());
  const unknown = only.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (unknown.length > 0) throw new Error(`unknown part(s) ${unknown.join(', ')}; choose from ${PARTS.join(', ')}`);
  const selected = new Set(only as Part[]);
  const rows: Row[] = [];
  const started = performance.now();
  if (selected.has('server')) {
    rows.push(
      ...(await benchServer({ rounds: Number(values.rounds), connections: Number(values.connections), warmupS: 1, durationS: Number(values.duration) })),
    );
  }
  if (selected.has('rss')) rows.push(...(await benchRss(Number(values.pets))));
  if (selected.has('startup')) rows.push(...(await benchStartup(Number(values.runs))));
  if (selected.has('embedded')) rows.push(...(await benchEmbedded(Number(values.runs))));
  if (selected.has('profiles')) rows.push(...(await benchProfiles()));
  if (selected.has('faults')) {
    const profiles = (values['fault-profiles'] ?? 'quick,standard').split(',').map((p) => p.trim()) as FaultProfile[];
    const sets = (values['fault-sets'] ?? 'existing,independent,outside').split(',').map((s) => s.trim());
    const unknownSets = sets.filter((s) => !(s in FAULT_SETS));
    if (unknownSets.length > 0) throw new Error(`unknown fault set(s) ${unknownSets.join(', ')}; choose from ${Object.keys(FAULT_SETS).join(', ')}`);
    rows.push(...(await benchFaults(Number(values.parallel), profiles, sets as FaultSet[])));
  }
  if (selected.has('abuse')) {
    const abuse = await benchAbuse({ perFamily: Number(values['abuse-per-family']), seed: Number(values.seed) });
    rows.push(...abuse.rows);
    if (abuse.violations > 0) process.exitCode = 1;
  }
  progress(`done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  process.stdout.write(`${renderTable(rows)}\n`);
}

try {
  await main();
} catch (error) {
  process.stderr.write(`bench: ${(error as Error).message}\n`);
  process.exitCode = 2;
}
