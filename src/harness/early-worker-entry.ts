// An early thread's first module (early-workers.ts): vitest's worker runtime, which answers the pool's
// messages (they wait until it listens), then the modules the suite files import (EARLY_PRELOAD), so that
// the first file finds them loaded. The thread was started with the environment and flags vitest asks for.
import { workerData } from 'node:worker_threads';

const { entry, preload } = workerData as { entry: string; preload: string[] };
await import(entry);
for (const url of preload) {
  // A module that fails to load fails the same way when a suite file imports it: that is where it is reported.
  await import(url).catch(() => undefined);
}
