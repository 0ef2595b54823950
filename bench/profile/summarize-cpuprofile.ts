import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';

/**
 * Reads a .cpuprofile: self time by package or source file, the top functions (enough to see whether a
 * run waits — (idle) — or computes, and on what), and inclusive time of named functions.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export function readProfile(path: string): Profile {
  return JSON.parse(readFileSync(path, 'utf8')) as Profile;
}

/** Inclusive time (ms) of every function named in `names`, per definition site; async stacks end at an await. */
export function inclusive(profile: Profile, names: readonly string[]): [string, number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const seen = new Set<string>();
    for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
      const frame = byId.get(current)?.callFrame;
      if (!frame || !names.includes(frame.functionName)) continue;
      const key = `${frame.functionName} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    }
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
}

export function summarize(profile: Profile, top = 15): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, us] of self) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const group = groupOf(frame.url, frame.functionName);
    groups.set(group, (groups.get(group) ?? 0) + us);
    const fn = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + us);
  }
  const total = (profile.endTime - profile.startTime) / 1000;
  const lines = [`profile span ${total.toFixed(0)} ms`, 'self time by group:'];
  for (const [group, us] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${(us / 1000).toFixed(0).padStart(7)} ms  ${group}`);
  lines.push('top functions (self):');
  for (const [fn, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${(us / 1000).toFixed(0).padStart(7)} ms  ${fn}`);
  return lines.join('\n');
}

function groupOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg?.[1]) return pkg[1];
  const local = new RegExp(`^${escapeRegExp(PROJECT_ROOT)}(.*)$`).exec(url.replace('file://', ''));
  return local?.[1]?.split('/').slice(0, 2).join('/') ?? url;
}

function shortUrl(url: string): string {
  return url
    .replace('file://', '')
    .replace(/^.*node_modules\//, '')
    .replace(PROJECT_ROOT, '');
}

/** The project's own directory, wherever it is checked out. */
const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
