import { dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { isatty } from 'node:tty';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PoolOptions, PoolRunnerInitializer, PoolWorker, WorkerRequest } from 'vitest/node';

/** How a vitest worker thread is started: its entry, its environment and Node's flags. */
export interface WorkerLaunch {
  entry: string;
  env: Readonly<Record<string, string | undefined>>;
  execArgv: readonly string[];
}

/** The name of the run's pool: vitest's thread pool, whose first threads may have been started early. */
export const EARLY_POOL = 'early-threads';

/**
 * The modules the suite files import, apart from vitest's runtime and what calls it, that an early thread
 * loads before its first file: relative to this module, or package names. None may call vitest's API as
 * it loads (the harness's test context does): such a module fails outside a test file, and Node would keep
 * that failure for the suite's own import. test/harness/early-workers.test.ts holds the list to both: it
 * holds every such module a suite file imports, and none that reaches vitest.
 */
export const EARLY_PRELOAD: readonly string[] = [
  'fast-check',
  '../client/index.js',
  '../client/raw-http.js',
  '../client/raw-request.js',
  '../client/framing-probe.js',
  '../client/close-probe.js',
  '../arbitraries/index.js',
  '../model/index.js',
  '../text/json.js',
  '../text/wire-record.js',
  '../config/plans.js',
  '../checks/response-reading.js',
  '../checks/rules/rate-rules.js',
  '../checks/rules/plan-window-rules.js',
  '../checks/rules/rate-refill-rules.js',
  './rule-exchanges.js',
];

/**
 * A worker thread started before vitest is loaded. The main thread spends its first quarter second loading
 * vitest and preparing the run while the second core sits idle; a thread started then loads vitest's
 * runtime and the suites' modules on that core, and the first test file runs on it as soon as vitest asks
 * for a worker. One: a second competed with the main thread for the core and came later (bench/results.md).
 *
 * vitest takes the early thread only when it asks for exactly the launch the thread was started with
 * (expectedLaunch: entry, environment and Node flags); otherwise, and once it is taken, vitest starts its
 * own threads, as its thread pool does. So the early thread runs tests only where one of vitest's own would
 * have run them alike, with the same modules loaded from the same files.
 */
export class EarlyWorkers {
  /** The early thread while it waits to be taken. */
  private idle: Worker | undefined;
  private taken = 0;

  constructor(
    private readonly launch: WorkerLaunch,
    preload: readonly string[],
  ) {
    const starter = fileURLToPath(new URL('./early-worker-entry.js', import.meta.url));
    const thread = new Worker(starter, {
      env: { ...launch.env },
      execArgv: [...launch.execArgv],
      stdout: true,
      stderr: true,
      workerData: { entry: pathToFileURL(launch.entry).href, preload: [...preload] },
    });
    // Never taken, it must not keep the process alive; if it fails or ends before vitest takes it (its
    // entry would not load), it no longer waits: a failure here is never the run's.
    thread.unref();
    const drop = () => {
      this.idle = undefined;
    };
    thread.on('error', drop);
    thread.on('exit', drop);
    this.idle = thread;
  }

  /** How many early threads vitest took: 0 or 1. */
  get adopted(): number {
    return this.taken;
  }

  /** How many early threads wait to be taken: 0 or 1 (one that failed or ended no longer waits). */
  get waiting(): number {
    return this.idle ? 1 : 0;
  }

  /** The pool vitest is given: its first thread is the early one when the launch matches, then new ones. */
  pool(): PoolRunnerInitializer {
    return { name: EARLY_POOL, createPoolWorker: (options) => new ThreadWorker(options, (launch) => this.take(launch)) };
  }

  /** Ends the early thread if vitest did not take it. */
  async dispose(): Promise<void> {
    const thread = this.idle;
    this.idle = undefined;
    await thread?.terminate();
  }

  private take(wanted: WorkerLaunch): Worker | undefined {
    const thread = this.idle;
    if (!thread || !sameLaunch(wanted, this.launch)) return undefined;
    // From here on vitest's pool listens to it as to a thread of its own (the drop above no longer applies).
    this.idle = undefined;
    thread.ref();
    this.taken += 1;
    return thread;
  }
}

/**
 * The early thread of a run of the compiled CLI (dist/), on the core the main thread leaves idle while it
 * loads vitest. None when run from the TypeScript sources, where vitest's module runner loads the suites.
 */
export function startEarlyWorkers(): EarlyWorkers | undefined {
  if (!import.meta.url.endsWith('.js')) return undefined;
  try {
    return new EarlyWorkers(expectedLaunch(), preloadUrls());
  } catch {
    // A head start that cannot be had (vitest not where it is looked for, no thread to be had) is no error:
    // vitest starts its own threads.
    return undefined;
  }
}

/** EARLY_PRELOAD as URLs. */
export function preloadUrls(): string[] {
  return EARLY_PRELOAD.map((specifier) => (specifier.startsWith('.') ? new URL(specifier, import.meta.url).href : import.meta.resolve(specifier)));
}

/** The launch vitest's thread pool makes for `options` (vitest 4: `workers/threads.js` in its dist/). */
export function vitestLaunch(options: Pick<PoolOptions, 'distPath' | 'env' | 'execArgv'>): WorkerLaunch {
  return { entry: join(options.distPath, 'workers', 'threads.js'), env: options.env, execArgv: options.execArgv };
}

/** The same entry, the same flags in the same order, and the same environment. */
export function sameLaunch(a: WorkerLaunch, b: WorkerLaunch): boolean {
  if (a.entry !== b.entry || a.execArgv.length !== b.execArgv.length || a.execArgv.some((arg, i) => arg !== b.execArgv[i])) return false;
  const names = Object.keys(a.env);
  return names.length === Object.keys(b.env).length && names.every((name) => Object.hasOwn(b.env, name) && a.env[name] === b.env[name]);
}

/**
 * The launch vitest 4 makes for the CLI's runs, worked out before vitest is loaded:
 * - the entry: `workers/threads.js` in vitest's dist/;
 * - the environment: this process's, with what vite and vitest add to it while they start: NODE_ENV
 *   (development when unset), vite's mode variables (PROD, DEV, BASE_URL, MODE, each unless already
 *   set), and vitest's own (TEST, VITEST, VITEST_MODE, FORCE_TTY);
 * - Node's flags: this process's profiling flags, the import.meta.resolve flag, vitest's warning filter,
 *   and vite's resolve conditions for server-side modules (node, then production or development).
 * Where vitest asks for anything else (another vitest, a `.env` file with VITE_ variables), it starts its
 * own threads; test/verdicts/cli/early-workers.test.ts checks that the CLI's vitest asks for this.
 */
export function expectedLaunch(env: NodeJS.ProcessEnv = process.env, execArgv: readonly string[] = process.execArgv, ttyOut = isatty(1)): WorkerLaunch {
  const dist = dirname(fileURLToPath(import.meta.resolve('vitest')));
  const nodeEnv = env.NODE_ENV || 'development';
  const production = nodeEnv === 'production';
  return {
    entry: join(dist, 'workers', 'threads.js'),
    env: {
      ...env,
      NODE_ENV: nodeEnv,
      PROD: env.PROD ?? (production ? '1' : ''),
      DEV: env.DEV ?? (production ? '' : '1'),
      BASE_URL: env.BASE_URL ?? '/',
      MODE: env.MODE ?? 'test',
      TEST: 'true',
      VITEST: 'true',
      VITEST_MODE: 'RUN',
      FORCE_TTY: ttyOut ? 'true' : '',
    },
    execArgv: [
      ...execArgv.filter((arg) => arg.startsWith('--cpu-prof') || arg.startsWith('--heap-prof') || arg.startsWith('--diagnostic-dir')),
      '--experimental-import-meta-resolve',
      '--require',
      join(dirname(dist), 'suppress-warnings.cjs'),
      '--conditions',
      'node',
      '--conditions',
      production ? 'production' : 'development',
    ],
  };
}

/** A worker of vitest's thread pool (as vitest 4's own), on an early thread when one is given. */
class ThreadWorker implements PoolWorker {
  readonly name = EARLY_POOL;
  private thread: Worker | undefined;
  private readonly stdout: Writable;
  private readonly stderr: Writable;

  constructor(
    private readonly options: PoolOptions,
    private readonly early: (launch: WorkerLaunch) => Worker | undefined,
  ) {
    this.stdout = options.project.vitest.logger.outputStream;
    this.stderr = options.project.vitest.logger.errorStream;
  }

  on(event: string, callback: (arg: unknown) => void): void {
    this.started().on(event, callback);
  }

  off(event: string, callback: (arg: unknown) => void): void {
    this.started().off(event, callback);
  }

  send(message: WorkerRequest): void {
    this.started().postMessage(message);
  }

  deserialize(data: unknown): unknown {
    return data;
  }

  async start(): Promise<void> {
    if (this.thread) return;
    const launch = vitestLaunch(this.options);
    const thread = this.early(launch) ?? new Worker(launch.entry, { env: { ...launch.env }, execArgv: [...launch.execArgv], stdout: true, stderr: true });
    this.thread = thread;
    // A pipe per thread on the same two streams, as vitest's pool does: raise their listener ceilings to match.
    for (const [from, to] of [
      [thread.stdout, this.stdout],
      [thread.stderr, this.stderr],
    ] as const) {
      to.setMaxListeners(to.getMaxListeners() + 1);
      from.pipe(to, { end: false });
    }
  }

  async stop(): Promise<void> {
    const thread = this.thread;
    if (!thread) return;
    await thread.terminate();
    for (const [from, to] of [
      [thread.stdout, this.stdout],
      [thread.stderr, this.stderr],
    ] as const) {
      from.unpipe(to);
      to.setMaxListeners(to.getMaxListeners() - 1);
    }
    this.thread = undefined;
  }

  private started(): Worker {
    if (!this.thread) throw new Error('the worker thread was stopped or never started');
    return this.thread;
  }
}
