import { existsSync, readFileSync, readdirSync } from 'node:fs';

/** One OS thread of a process: its CPU (user + system) as last read, and when it was first seen. */
export interface ThreadCpu {
  tid: number;
  /** The kernel's name of the thread (`node` for Node's own threads, `rolldown-worke` for rolldown's). */
  name: string;
  cpuMs: number;
  /** Milliseconds after the watch started at which the thread was first seen. */
  firstSeenMs: number;
}

/** The clock ticks a second /proc counts in: 100 on Linux (USER_HZ), whatever the kernel's own rate. */
const TICKS_PER_SECOND = 100;

/**
 * Reads the CPU of every thread of `pid` from /proc every `everyMs` until stopped: what a CPU profile does
 * not show, the threads no JavaScript runs on (V8's background compiler and garbage collector, libuv's
 * pool), and each JavaScript thread's CPU as the kernel counts it, without the waiting a profiler on a
 * loaded machine charges to the function it sampled. Linux only: elsewhere `available` is false.
 */
export function watchThreads(pid: number, everyMs = 20): { available: boolean; stop(): ThreadCpu[] } {
  const root = `/proc/${pid}/task`;
  if (!existsSync(root)) return { available: false, stop: () => [] };
  const started = performance.now();
  const threads = new Map<number, ThreadCpu>();
  const read = () => {
    let tids: string[];
    try {
      tids = readdirSync(root);
    } catch {
      return;
    }
    for (const tid of tids) {
      try {
        const stat = readFileSync(`${root}/${tid}/stat`, 'utf8');
        // The name is in parentheses and may hold spaces: the fields after it are counted from its end.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const ticks = Number(fields[11]) + Number(fields[12]);
        const known = threads.get(Number(tid));
        if (known) known.cpuMs = (ticks * 1000) / TICKS_PER_SECOND;
        else
          threads.set(Number(tid), {
            tid: Number(tid),
            name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
            cpuMs: (ticks * 1000) / TICKS_PER_SECOND,
            firstSeenMs: performance.now() - started,
          });
      } catch {
        // The thread ended between the listing and the read: its last reading stands.
      }
    }
  };
  read();
  const timer = setInterval(read, everyMs);
  return {
    available: true,
    stop: () => {
      clearInterval(timer);
      return [...threads.values()];
    },
  };
}

/**
 * The threads in groups: the main thread (its id is the process's); the threads the process had from its
 * start, Node's own (V8's platform workers: background compiles and GC; libuv's pool); and those started
 * later, vitest's workers among them. A thread of a few milliseconds is left out of the list.
 */
export function threadRows(pid: number, threads: readonly ThreadCpu[], startMs: number): string[] {
  const role = (t: ThreadCpu) =>
    t.tid === pid
      ? 'main thread'
      : t.name !== 'node'
        ? t.name
        : t.firstSeenMs <= startMs
          ? "Node's own (V8 background, libuv)"
          : 'started later (vitest workers)';
  const byRole = new Map<string, ThreadCpu[]>();
  for (const t of threads) byRole.set(role(t), [...(byRole.get(role(t)) ?? []), t]);
  const total = threads.reduce((sum, t) => sum + t.cpuMs, 0);
  const rows = ['| threads | CPU ms | share | each (ms) |', '|---|---|---|---|'];
  for (const [name, group] of [...byRole].sort((a, b) => sum(b[1]) - sum(a[1]))) {
    const each = group
      .map((t) => t.cpuMs)
      .filter((ms) => ms >= 20)
      .sort((a, b) => b - a);
    rows.push(`| ${name} (${group.length}) | ${Math.round(sum(group))} | ${Math.round((sum(group) * 100) / total)}% | ${each.map(Math.round).join(', ')} |`);
  }
  rows.push(`| all | ${Math.round(total)} | 100% | |`);
  return rows;
}

const sum = (threads: readonly ThreadCpu[]) => threads.reduce((s, t) => s + t.cpuMs, 0);
