import { BENCH_KEY, type Row } from './common.ts';
import { FAMILIES, type Family, abuseCases, abuseProblems } from '../lib/abuse-cases.ts';
import { concurrentCreates, idleConnections, keyTiming, pooled, slowClients } from '../lib/abuse-load.ts';
import { forkChild } from '../lib/children.ts';
import { progress } from '../lib/paths.ts';
import { rawExchange } from '../lib/raw-exchange.ts';
import { fmt } from '../lib/stats.ts';

interface RssReply {
  rss: number;
  heapUsed: number;
  unexpected: number;
}

export interface AbuseSettings {
  /** Odd requests per family (7 families). */
  perFamily: number;
  seed: number;
}

const MB = 1024 * 1024;
const CONCURRENCY = 32;

/**
 * The reference server (its own process) against ≥ 10,000 odd requests, slow and stalled clients,
 * thousands of idle connections and 1,000 concurrent creates. Every answer must be a non-5xx with the
 * rate-limit headers (and the Error shape from 400 on); nothing may hang or crash. Returns the table rows
 * and how many violations were seen (the bench exits 1 when there are any).
 */
export async function benchAbuse(settings: AbuseSettings): Promise<{ rows: Row[]; violations: number }> {
  const child = await forkChild('reference-child', { BENCH_ROOMY_ANONYMOUS: '1' });
  const port = Number(new URL(child.url).port);
  const rows: Row[] = [];
  let violations = 0;
  try {
    const before = await child.ask<RssReply>('rss');
    const started = performance.now();
    let total = 0;
    const examples = new Map<string, string>();
    for (const family of FAMILIES) {
      progress(`abuse: ${settings.perFamily} × ${family}`);
      const cases = abuseCases(family, settings.perFamily, BENCH_KEY, settings.seed);
      const outcomes = await pooled(cases, CONCURRENCY, (abuse) => rawExchange(port, abuse.bytes, { timeoutMs: 15_000, head: abuse.head }));
      const statuses = new Map<string, number>();
      let problems = 0;
      outcomes.forEach((outcome, index) => {
        const abuse = cases[index] as (typeof cases)[number];
        const found = abuseProblems(outcome, abuse);
        const status = outcome.answer ? `${String(outcome.answer.status).charAt(0)}xx` : outcome.hung ? 'hung' : 'closed';
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (found.length > 0) {
          problems += 1;
          if (!examples.has(family)) examples.set(family, `${abuse.label}: ${found.join(', ')}`);
        }
      });
      total += cases.length;
      violations += problems;
      rows.push(familyRow(family, cases.length, statuses, problems, examples.get(family)));
    }
    const seconds = (performance.now() - started) / 1000;
    const afterOdd = await child.ask<RssReply>('rss');
    rows.push({
      measure: 'abuse: odd requests in all',
      value: `${fmt(total)} in ${fmt(seconds, 1)} s`,
      notes: `${fmt(total / seconds)} req/s over ${CONCURRENCY} connections; RSS ${fmt(before.rss / MB, 1)} → ${fmt(afterOdd.rss / MB, 1)} MB`,
    });

    progress('abuse: slow and stalled clients');
    const slow = await slowClients(port, BENCH_KEY, 100, 20, 45_000);
    violations += slow.dripped - slow.drippedServed + (slow.stalled - slow.stalledClosed);
    rows.push({
      measure: 'abuse: slow clients served / stalled ones closed',
      value: `${slow.drippedServed}/${slow.dripped} · ${slow.stalledClosed}/${slow.stalled}`,
      notes: `a request dripped over 1.5 s is served; a stalled request is closed after ${fmt(slow.stalledMaxCloseMs / 1000, 1)} s at most`,
    });

    progress('abuse: 3,000 idle connections');
    const idle = await idleConnections(port, BENCH_KEY, 3_000, 200);
    violations += idle.probes - idle.servedWhileIdle;
    rows.push({
      measure: 'abuse: idle connections held / new clients served meanwhile',
      value: `${fmt(idle.opened)} · ${idle.servedWhileIdle}/${idle.probes}`,
      notes: 'connections that never send a byte do not starve the others',
    });

    progress('abuse: 1,000 concurrent creates');
    const creates = await concurrentCreates(port, BENCH_KEY, 1_000);
    violations += creates.problems;
    rows.push({
      measure: 'abuse: 1,000 concurrent creates',
      value: `${creates.created} created, ${creates.uniqueIds} unique ids, ${creates.retrieved} read back`,
      notes: 'one connection each, all at once; every id read back with its name',
    });

    progress('abuse: key comparison timing');
    const timing = await keyTiming(port, BENCH_KEY, 1_000);
    rows.push({
      measure: 'abuse: wrong key, near miss vs unrelated (median)',
      value: `${fmt(timing.nearMissMedianUs)} µs vs ${fmt(timing.farMissMedianUs)} µs`,
      notes: 'keys are compared through a digest in constant time; the two medians differ only by noise',
    });

    const after = await child.ask<RssReply>('rss');
    const exit = child.exit();
    if (exit !== undefined || after.unexpected > 0) violations += 1;
    rows.push({
      measure: 'abuse: crashes, last-resort 500s, RSS at the end',
      value: `${exit === undefined ? 0 : 1} · ${after.unexpected} · ${fmt(after.rss / MB, 1)} MB`,
      notes: `heap ${fmt(after.heapUsed / MB, 1)} MB after GC (1,000 pets stored); ${violations} violation(s) in all`,
    });
  } finally {
    await child.stop();
  }
  return { rows, violations };
}

function familyRow(family: Family, count: number, statuses: Map<string, number>, problems: number, example: string | undefined): Row {
  const spread = [...statuses.entries()]
    .sort()
    .map(([status, n]) => `${status} ${fmt(n)}`)
    .join(', ');
  return {
    measure: `abuse: ${family}`,
    value: `${fmt(count)} sent, ${problems} violation(s)`,
    notes: problems > 0 ? `${spread}; e.g. ${example ?? ''}` : spread,
  };
}
