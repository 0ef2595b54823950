import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { startReferenceServer } from '../../src/reference/index.ts';
import { BENCH_KEY } from '../parts/common.ts';
import type { ReplayedRequest } from '../lib/har-requests.ts';
import { REPO_ROOT } from '../lib/paths.ts';

/**
 * The lean harness: a run's own requests (BENCH_LEAN_REQUESTS, a JSON file of ReplayedRequest) sent again
 * to the reference on the main thread by two undici clients on worker threads, as the embedded run's two
 * workers send them, each answer's body checked against the contract's schema for its operation and
 * status with the contract's ajv validator, nothing else recorded. The denominator of the run's CPU a
 * request. Prints the process's user + system CPU per request in µs, as JSON on stdout.
 */

/** The clients' threads, in plain JavaScript: a worker does not inherit tsx's loader, so they load dist/. */
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const { Client } = require(workerData.undici);
(async () => {
  const { createContract } = await import(workerData.contract);
  const contract = createContract();
  const client = new Client(workerData.origin);
  // Loaded and compiled before the measure starts: a harness's start-up is the run's fixed cost, not a request's.
  contract.validate('#/components/schemas/Pet', {});
  parentPort.postMessage({ ready: true });
  await new Promise((resolve) => parentPort.once('message', resolve));
  let invalid = 0;
  let skipped = 0;
  for (const r of workerData.requests) {
    const headers = { authorization: 'Bearer ' + workerData.key, accept: 'application/json' };
    if (r.body !== undefined) headers['content-type'] = 'application/json';
    // A method or target undici will not send (the suite's raw probes): counted, not replayed.
    let answer;
    try {
      answer = await client.request({ path: r.path, method: r.method, body: r.body, headers });
    } catch {
      skipped += 1;
      continue;
    }
    const text = await answer.body.text();
    const schema = r.operationId ? contract.response(r.operationId, answer.statusCode)?.schemaRef : undefined;
    if (schema && text) {
      try {
        if (contract.validate(schema, JSON.parse(text)).length > 0) invalid += 1;
      } catch {
        invalid += 1;
      }
    }
  }
  await client.close();
  parentPort.postMessage({ invalid, skipped });
})();
`;

const requests = JSON.parse(readFileSync(process.env.BENCH_LEAN_REQUESTS ?? '', 'utf8')) as ReplayedRequest[];
const server = await startReferenceServer({ keys: [{ key: BENCH_KEY, plan: 'enterprise', perMinute: 1_000_000_000, perDay: 1_000_000_000 }], log: () => {} });
const origin = new URL(server.url).origin;
const undici = createRequire(import.meta.url).resolve('undici');
const contract = pathToFileURL(join(REPO_ROOT, 'dist', 'contract', 'index.js')).href;
const halves = [requests.filter((_, i) => i % 2 === 0), requests.filter((_, i) => i % 2 === 1)];
const workers = halves.map((half) => new Worker(CLIENT, { eval: true, workerData: { origin, undici, contract, key: BENCH_KEY, requests: half } }));
const message = (worker: Worker) =>
  new Promise<Record<string, number>>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
await Promise.all(workers.map(message));
const before = process.cpuUsage();
const started = performance.now();
const finished = workers.map(message);
for (const worker of workers) worker.postMessage('go');
const results = await Promise.all(finished);
const used = process.cpuUsage(before);
const wallMs = performance.now() - started;
await Promise.all(workers.map((worker) => worker.terminate()));
await server.close();
const invalid = results.reduce((sum, r) => sum + (r.invalid ?? 0), 0);
const skipped = results.reduce((sum, r) => sum + (r.skipped ?? 0), 0);
const sent = requests.length - skipped;
process.stdout.write(`${JSON.stringify({ cpuMicrosPerRequest: (used.user + used.system) / sent, requests: sent, skipped, wallMs, invalid })}\n`);
