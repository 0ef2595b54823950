import { HarnessError } from '../errors.ts';

/** The longest window --rate-window states: the interface's limits are per minute, never longer. */
const MAX_RATE_WINDOW_S = 60;
/**
 * The shortest: X-RateLimit-Reset counts whole seconds, and the rate rules take Resets a second apart for
 * one window (a sliding window moves its Reset a little). Windows of one second are a second apart, so
 * the rules would read two windows as one and fail a valid target (a Free key's 60 served in the next
 * window counted with the request before it).
 */
export const MIN_RATE_WINDOW_S = 2;

/**
 * --rate-window in seconds, as milliseconds: the length of the per-minute window of a target shortened
 * for testing (a reference started with a 2-second window). Undefined when not given: a remote target's
 * window is the interface's minute, the embedded reference states its own.
 */
export function rateWindowMs(text: string | undefined, from: string): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  const seconds = Number(trimmed);
  if (!/^\d{1,2}$/.test(trimmed) || seconds < MIN_RATE_WINDOW_S || seconds > MAX_RATE_WINDOW_S) {
    throw new HarnessError(
      'ERR_CONFIG',
      `${from} must be a whole number of seconds from ${MIN_RATE_WINDOW_S} to ${MAX_RATE_WINDOW_S} (X-RateLimit-Reset counts whole seconds: a window of one cannot be told from the next); got "${text}"`,
    );
  }
  return seconds * 1_000;
}
