import { readFileSync } from 'node:fs';
import { HarnessError } from '../errors.ts';
import { createHash } from 'node:crypto';
import type { Deviation, DeviationNote, FailureDetail, RequirementResult } from './report-types.ts';
import { parseYaml } from '../text/yaml-data.ts';

/**
 * Reads an expected-deviations file: YAML or JSON (JSON is YAML), a list of { id, reason }, or an object
 * with such a list under `deviations`. A malformed file is a configuration error, never ignored.
 */
export function parseExpectedDeviations(text: string, origin = 'expected deviations'): Deviation[] {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (cause) {
    // The parser's message spans lines (a caret under the source): its first line says enough.
    const first = (cause as Error).message.split('\n')[0]?.replace(/:$/, '') ?? '';
    throw new HarnessError('ERR_CONFIG', `${origin}: not YAML or JSON (${first})`, { cause });
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
    const { expires, fingerprint } = entry as { expires?: unknown; fingerprint?: unknown };
    const deviation: Deviation = { id: id.trim(), reason: reason.trim() };
    if (expires !== undefined) {
      const text = expires instanceof Date ? expires.toISOString().slice(0, 10) : String(expires);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(text)))
        throw new HarnessError('ERR_CONFIG', `${origin}: ${id} expires "${text}", not a date YYYY-MM-DD`);
      deviation.expires = text;
    }
    if (fingerprint !== undefined) deviation.fingerprint = parseFingerprint(fingerprint, `${origin}: ${id}`);
    return deviation;
  });
}

/** `what` names the file in messages: the same format serves --expected-deviations and --baseline. */
export function loadExpectedDeviations(path: string, what = 'the expected deviations file (--expected-deviations)'): Deviation[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    const reason = (cause as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (cause as Error).message;
    throw new HarnessError('ERR_CONFIG', `cannot read ${what} ${path}: ${reason}`, { cause });
  }
  return parseExpectedDeviations(text, path);
}

/** What became of each listed deviation: applied, or flagged because it does not match the run. */
export function deviationNotes(deviations: readonly Deviation[], requirements: readonly RequirementResult[], today: string): DeviationNote[] {
  const byId = new Map(requirements.map((r) => [r.id, r]));
  return deviations.map((d) => {
    const requirement = byId.get(d.id);
    if (!requirement) return { ...d, status: 'unknown-requirement' };
    if (requirement.verdict === 'deviation') return { ...d, status: 'applied' };
    if (requirement.verdict === 'pass') return { ...d, status: 'requirement-passes' };
    if (requirement.verdict === 'fail' || requirement.verdict === 'warn') return { ...d, status: isExpired(d, today) ? 'expired' : 'different-failure' };
    return { ...d, status: 'not-tested' };
  });
}

export function isExpired(deviation: Deviation, today: string): boolean {
  return deviation.expires !== undefined && deviation.expires < today;
}

/**
 * What a requirement's failure looked like, independent of the run: one short hash per mark, a mark being
 * a test that failed or an always-on check that fired (never pet ids, names, times or exchange numbers),
 * sorted and joined by spaces. A mark per hash, not one hash of them all, so that a shard, which sees only
 * the marks of its own files, judges an entry exactly as the merge of every shard does: the failure is the
 * listed one while each of its marks is listed (see unlistedMarks). A failure with a mark the entry does
 * not list is a different failure: a baseline entry does not hide it.
 */
export function failureFingerprint(failures: readonly FailureDetail[]): string {
  return failureMarks(failures).map(markHash).sort().join(' ');
}

/** The marks of a failure that its baseline entry's fingerprint does not list; none: the failure is the listed one. */
export function unlistedMarks(failures: readonly FailureDetail[], fingerprint: string): string[] {
  const listed = new Set(fingerprint.split(' '));
  return failureMarks(failures).filter((mark) => !listed.has(markHash(mark)));
}

/**
 * A fingerprint of the older form, one hash of every mark together, that matches this failure: it is
 * not accepted (a shard, seeing part of the marks, could never match it), but the run says to write it again.
 */
export function isOlderFingerprint(failures: readonly FailureDetail[], fingerprint: string): boolean {
  return fingerprint === markHash(failureMarks(failures).join('\n'));
}

function failureMarks(failures: readonly FailureDetail[]): string[] {
  return [...new Set(failures.map(failureMark))].sort();
}

/** What one failure contributes to its requirement's fingerprint: the test that failed, or the check that fired. */
export function failureMark(failure: FailureDetail): string {
  return failure.origin === 'finding' ? `check:${failure.check ?? ''}` : `test:${failure.testName}`;
}

const markHash = (mark: string): string => createHash('sha256').update(mark).digest('hex').slice(0, 16);

const FINGERPRINT_PART = /^[0-9a-f]{8,64}$/;

/** A fingerprint as written: hex hashes separated by spaces or commas, or a list of them; kept sorted, space-separated. */
function parseFingerprint(value: unknown, where: string): string {
  const parts = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[\s,]+/).filter(Boolean) : [value];
  if (parts.length === 0 || !parts.every((part) => typeof part === 'string' && FINGERPRINT_PART.test(part)))
    throw new HarnessError('ERR_CONFIG', `${where} has a fingerprint that is not hex (hashes of 8 to 64 hex digits, separated by spaces)`);
  return [...new Set(parts as string[])].sort().join(' ');
}

/**
 * The baseline after this run: every failing requirement listed, keeping the reasons and expiry dates
 * already given; entries of requirements that pass are dropped (fixed).
 */
export function updatedBaseline(previous: readonly Deviation[], requirements: readonly RequirementResult[], today: string): Deviation[] {
  const known = new Map(previous.map((d) => [d.id, d]));
  return requirements
    .filter((r) => r.verdict === 'fail' || r.verdict === 'warn' || r.verdict === 'deviation')
    .map((r) => {
      const kept = known.get(r.id);
      const entry: Deviation = { id: r.id, reason: kept?.reason ?? `known failure, recorded ${today}: ${r.text}` };
      // A new entry expires by default, so an accepted gap is looked at again rather than forgotten.
      entry.expires = kept ? kept.expires : addDays(today, BASELINE_DAYS);
      if (entry.expires === undefined) delete entry.expires;
      entry.fingerprint = failureFingerprint(r.failures);
      return entry;
    });
}

/** How long a new baseline entry is accepted before it expires. */
export const BASELINE_DAYS = 90;

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export function renderBaseline(entries: readonly Deviation[]): string {
  const lines = ['# Known failures the gate accepts (animal-store-conformance --baseline). Give each an expiry date.', 'deviations:'];
  for (const e of entries) {
    lines.push(`  - id: ${e.id}`, `    reason: ${JSON.stringify(e.reason)}`);
    if (e.expires) lines.push(`    expires: ${e.expires}`);
    // Quoted: a hash of digits alone (or digits, e, digits) would read back as a number.
    if (e.fingerprint) lines.push(`    fingerprint: ${JSON.stringify(e.fingerprint)}`);
  }
  return `${lines.join('\n')}\n`;
}
