import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { HarnessError } from '../errors.ts';
import type { Deviation, DeviationNote, RequirementResult } from './model.ts';

/**
 * Reads an expected-deviations file: YAML or JSON (JSON is YAML), a list of { id, reason }, or an object
 * with such a list under `deviations`. A malformed file is a configuration error, never ignored.
 */
export function parseExpectedDeviations(text: string, origin = 'expected deviations'): Deviation[] {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (cause) {
    throw new HarnessError('ERR_CONFIG', `${origin}: not YAML or JSON (${(cause as Error).message})`, { cause });
  }
  if (raw === null || raw === undefined) return [];
  const list = Array.isArray(raw) ? raw : (raw as { deviations?: unknown }).deviations;
  if (!Array.isArray(list)) throw new HarnessError('ERR_CONFIG', `${origin}: expected a list of { id, reason }`);
  const seen = new Set<string>();
  return list.map((entry: unknown, index) => {
    const { id, reason } = (entry ?? {}) as { id?: unknown; reason?: unknown };
    if (typeof id !== 'string' || !id.trim()) throw new HarnessError('ERR_CONFIG', `${origin}: entry ${index + 1} has no id`);
    if (typeof reason !== 'string' || !reason.trim()) {
      throw new HarnessError('ERR_CONFIG', `${origin}: ${id} needs a reason (why the implementation deviates)`);
    }
    if (seen.has(id)) throw new HarnessError('ERR_CONFIG', `${origin}: ${id} is listed twice`);
    seen.add(id);
    return { id: id.trim(), reason: reason.trim() };
  });
}

export function loadExpectedDeviations(path: string): Deviation[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new HarnessError('ERR_CONFIG', `cannot read the expected deviations file ${path}`, { cause });
  }
  return parseExpectedDeviations(text, path);
}

/** What became of each listed deviation: applied, or flagged because it does not match the run. */
export function deviationNotes(deviations: readonly Deviation[], requirements: readonly RequirementResult[]): DeviationNote[] {
  const byId = new Map(requirements.map((r) => [r.id, r]));
  return deviations.map((d) => {
    const requirement = byId.get(d.id);
    if (!requirement) return { ...d, status: 'unknown-requirement' };
    if (requirement.verdict === 'deviation') return { ...d, status: 'applied' };
    if (requirement.verdict === 'pass') return { ...d, status: 'requirement-passes' };
    return { ...d, status: 'not-tested' };
  });
}
