import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

/**
 * `node --import tsx --import ./test/bench/profile/main-thread-hook.ts src/cli.ts`: a CPU profile of the
 * CLI's main thread, written to BENCH_MAIN_PROF_DIR at exit. `--cpu-prof` cannot be used there: vitest's
 * threads pool hands process.execArgv to its Workers, which refuse it. Workers load this hook too and
 * do nothing.
 */
const dir = process.env.BENCH_MAIN_PROF_DIR;
if (isMainThread && dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  process.once('exit', () => {
    // A same-thread inspector session answers synchronously, so the profile is written before exit.
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(join(dir, `main-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
