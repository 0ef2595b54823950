// The compiled package's early threads and their pool, driven as vitest drives them, against a stand-in for
// vitest's worker entry (`<dir>/workers/threads.js`) that answers a message with the environment, the
// Node flags and whether it is an early thread, and prints a line when it loads. Prints what it saw, as
// JSON (early-workers.test.ts holds it to what vitest's own pool does).
import { existsSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { BroadcastChannel } from 'node:worker_threads';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [dist] = process.argv.slice(2);
const { EarlyWorkers, preloadUrls } = await import(pathToFileURL(`${dist}/harness/early-workers.js`).href);

const dir = mkdtempSync(join(tmpdir(), 'early-thread-'));
mkdirSync(join(dir, 'workers'));
writeFileSync(
  join(dir, 'workers', 'threads.js'),
  `import { existsSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
const early = Boolean(workerData && workerData.preload);
// Told to: an early thread that ends before it is taken.
if (early && existsSync(new URL('../exit-early', import.meta.url))) process.exit(3);
console.log(early ? 'loaded early' : 'loaded fresh');
console.error(early ? 'early on stderr' : 'fresh on stderr');
parentPort.on('message', () => parentPort.postMessage({ env: { ...process.env }, execArgv: process.execArgv, early }));
// Answers a roll call while it lives.
const roll = new BroadcastChannel('early-thread-roll-call');
roll.onmessage = () => roll.postMessage(early ? 'early' : 'fresh');
`,
);

const launch = {
  entry: join(dir, 'workers', 'threads.js'),
  env: { ...process.env, EARLY_THREAD_TEST: 'yes' },
  execArgv: ['--no-warnings', '--conditions', 'early-test'],
};
const out = new PassThrough();
const err = new PassThrough();
let printed = '';
let printedErr = '';
out.on('data', (chunk) => (printed += chunk));
err.on('data', (chunk) => (printedErr += chunk));
const optionsFor = (env) => ({ distPath: dir, env, execArgv: launch.execArgv, project: { vitest: { logger: { outputStream: out, errorStream: err } } } });

/** What the thread behind a pool worker answers. */
function ask(worker, env = launch.env) {
  return new Promise((resolve) => {
    const answer = (message) => {
      worker.off('message', answer);
      resolve({
        early: message.early,
        sameEnv: sameEntries(message.env, env),
        sameFlags: JSON.stringify(message.execArgv) === JSON.stringify(launch.execArgv),
      });
    };
    worker.on('message', answer);
    worker.send({});
  });
}
const sameEntries = (a, b) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

async function until(condition, what) {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 60_000) throw new Error(`waited a minute for ${what}`);
    await sleep(20);
  }
}

/** Who answers a roll call within `ms` (a thread ended never does). */
async function rollCall(ms) {
  const channel = new BroadcastChannel('early-thread-roll-call');
  const heard = [];
  channel.onmessage = (event) => heard.push(event.data);
  channel.postMessage('who');
  await sleep(ms);
  channel.close();
  return heard;
}

const seen = { preloadFound: preloadUrls().every((url) => existsSync(fileURLToPath(url))) };
try {
  // Taken: a worker started twice keeps the one early thread.
  const early = new EarlyWorkers(launch, []);
  const pool = early.pool();
  const idleWorker = pool.createPoolWorker(optionsFor(launch.env));
  await idleWorker.stop();
  const first = pool.createPoolWorker(optionsFor(launch.env));
  const listeners = out.getMaxListeners();
  await first.start();
  await first.start();
  seen.taken = { ...(await ask(first)), adopted: early.adopted, waiting: early.waiting, listenersAdded: out.getMaxListeners() - listeners };
  await until(() => printed.includes('loaded early') && printedErr.includes('early on stderr'), 'the early thread to print');
  await first.stop();
  let afterStop = '';
  try {
    first.send({});
  } catch (error) {
    afterStop = error.message;
  }
  seen.stopped = { listenersLeft: out.getMaxListeners() - listeners, afterStop, outputOpen: !out.writableEnded };

  // Another launch, and none left: threads of vitest's own, started as asked.
  const unused = new EarlyWorkers(launch, []);
  const other = unused.pool().createPoolWorker(optionsFor({ ...launch.env, OTHER: '1' }));
  await other.start();
  seen.otherLaunch = { ...(await ask(other, { ...launch.env, OTHER: '1' })), adopted: unused.adopted, waiting: unused.waiting };
  const none = pool.createPoolWorker(optionsFor(launch.env));
  await none.start();
  seen.noneLeft = { ...(await ask(none)), adopted: early.adopted };
  await until(() => printed.includes('loaded fresh') && printedErr.includes('fresh on stderr'), 'a fresh thread to print');
  await Promise.all([other.stop(), none.stop()]);

  // Disposed, the early thread vitest did not take ends: it answered a roll call before, never after.
  const before = [];
  for (let waited = 0; !before.includes('early') && waited < 60_000; waited += 100) before.push(...(await rollCall(100)));
  await unused.dispose();
  seen.disposed = { answeredBefore: before.includes('early'), answersAfter: await rollCall(500), waiting: unused.waiting };

  // An early thread that ends before it is taken no longer waits, and is never handed to vitest.
  writeFileSync(join(dir, 'exit-early'), '');
  const ended = new EarlyWorkers(launch, []);
  await until(() => ended.waiting === 0, 'the early thread to end');
  const afterEnd = ended.pool().createPoolWorker(optionsFor(launch.env));
  await afterEnd.start();
  seen.ended = { early: (await ask(afterEnd)).early, adopted: ended.adopted };
  await afterEnd.stop();
  rmSync(join(dir, 'exit-early'));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify(seen)}\n`);
process.exit(0);
