import type { RequirementVerdict } from '../report-types.ts';

/** Display words for the verdicts: what the pills and tables say. */
export const VERDICT_WORDS: Readonly<Record<RequirementVerdict, string>> = {
  pass: 'Pass',
  fail: 'Fail',
  warn: 'Warning',
  deviation: 'Deviation',
  partial: 'Partly tested',
  skipped: 'Untested',
  'not-covered': 'Out of scope',
};

/** 2025-06-01 14:03:07 UTC: unambiguous for a reader in any time zone. */
export function formatInstant(value: string | number): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1_000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${grouped(n)} ${n === 1 ? one : many}`;
}

/**
 * A number as en-US writes it, thousands grouped by commas. Integers (every count and limit a report
 * shows) are grouped here: the first toLocaleString of a process sets up ICU's number formats, about
 * 20 ms of a run's CPU.
 */
export function grouped(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  return `${n < 0 ? '-' : ''}${String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',')}`;
}

export function anchorOf(requirementId: string): string {
  return `req-${requirementId}`;
}
