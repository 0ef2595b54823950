import { setFlagsFromString } from 'node:v8';

/**
 * How much bytecode a function runs before V8 considers optimising it: about seven times V8's default
 * (67,584 in Node 20's V8). A run is seconds of work on four isolates, the main thread and three vitest
 * workers, each of which warms up alone; at the default, V8 optimised so many functions on its background
 * threads that compiling cost a third of the embedded run's CPU, more than it saved. With this budget the
 * hot loops (the redactor's filters, the JSON reader) are still optimised, later; the rest runs on the
 * baseline tiers. Measured in docs/performance.md: about half a second less CPU, the same wall time.
 */
const INTERRUPT_BUDGET = 500_000;

/**
 * Sets the budget for the isolates started after it: the vitest workers of the run (a worker cannot be
 * given V8 flags of its own). The main thread takes it from then on. Called by a test run only, never by
 * the standalone reference, a long-lived server that wants V8's default.
 */
export function budgetV8ForShortRun(): void {
  setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
}
