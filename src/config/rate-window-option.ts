import { HarnessError } from '../errors.ts';

/** The longest window --rate-window states: the interface's limits are per minute, never longer. */
const MAX_RATE_WINDOW_S = 60;

/**
 * --rate-window in seconds, as milliseconds: the length of the per-minute window of a target shortened
 * for testing (a reference started with a 2-second window). Undefined when not given: a remote target's
 * window is the interface's minute, the embedded reference states its own.
 */
export function rateWindowMs(text: string | undefined, from: string): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  const seconds = Number(trimmed);
  if (!/^\d{1,2}$/.test(trimmed) || seconds < 1 || seconds > MAX_RATE_WINDOW_S)
    throw new HarnessError('ERR_CONFIG', `${from} must be a whole number of seconds from 1 to ${MAX_RATE_WINDOW_S}; got "${text}"`);
  return seconds * 1_000;
}
