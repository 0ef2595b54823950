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
 * to the reference on the main thread by two clients on worker threads, as the embedded run's two
 * workers send them, nothing else recorded. The denominator of the run's CPU a request. Prints the
 * process's user + system CPU per request in µs, as JSON on stdout.
 *
 * BENCH_LEAN_STACK says which client sends them:
 * - `undici` (the default): undici's Client, each answer's body checked against the contract's schema for
 *   its operation and status with the contract's ajv validator. Read with JSON.parse, as a lean harness
 *   would: a pet whose int64 categoryId is near the end of the range reads as a double past it, and the
 *   check calls its answer invalid (`invalid` counts them, about 580 of a thorough run's 4,100). The check
 *   runs on every answer alike, so the count changes nothing of the CPU;
 * - `client`: the suite's own client (createClient from dist/: pacing, the JSON reader, recording, curl
 *   lines, heads in curl's shape), with redaction and the always-on checks left out;
 * - `client+redact`: that client redacting what it records, as a run's workers do;
 * - `client+redact+checks`: that client with the always-on checks too, as a run's workers send requests.
 *
 * The layers between the lean harness and a whole run: what the client costs, and what is left for the
 * suites, vitest and the run's isolates. None is warmed up by requests, as a run's workers are not.
 */

/** The clients' threads, in plain JavaScript: a worker does not inherit tsx's loader, so they load dist/. */
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const { Client } = require(workerData.undici);
(async () => {
  const { createContract } = await import(workerData.contract);
  const contract = createContract();
  let invalid = 0;
  let skipped = 0;
  // Loaded and compiled before the measure starts: a harness's start-up is the run's fixed cost, not a request's.
  const send = workerData.stack === 'undici' ? undiciSender(contract, () => (invalid += 1)) : await clientSender(contract);
  contract.validate('#/components/schemas/Pet', {});
  parentPort.postMessage({ ready: true });
  await new Promise((resolve) => parentPort.once('message', resolve));
  for (const r of workerData.requests) {
    // A method or target the client will not send (the suite's raw probes): counted, not replayed.
    try {
      await send(r);
    } catch {
      skipped += 1;
    }
  }
  await send.close();
  parentPort.postMessage({ invalid, skipped });
})();

function undiciSender(contract, onInvalid) {
  const client = new Client(workerData.origin);
  const send = async (r) => {
    const headers = { authorization: 'Bearer ' + workerData.key, accept: 'application/json' };
    if (r.body !== undefined) headers['content-type'] = 'application/json';
    const answer = await client.request({ path: r.path, method: r.method, body: r.body, headers });
    const text = await answer.body.text();
    const schema = r.operationId ? contract.response(r.operationId, answer.statusCode)?.schemaRef : undefined;
    if (schema && text) {
      try {
        if (contract.validate(schema, JSON.parse(text)).length > 0) onInvalid();
      } catch {
        onInvalid();
      }
    }
  };
  return Object.assign(send, { close: () => client.close() });
}

async function clientSender(contract) {
  const dist = workerData.dist;
  const { createClient } = await import(dist + '/client/index.js');
  const { createAgent } = await import(dist + '/client/interim-responses.js');
  const { createRedactorOf } = await import(dist + '/client/redact.js');
  const { runChecks } = await import(dist + '/checks/registry.js');
  const parts = workerData.stack.split('+');
  // As a run's file does: an agent of four connections, a client per key.
  const dispatcher = createAgent({ keepAliveTimeout: 10_000, connections: 4 });
  const unredacted = Object.assign((text) => text, { pieces: (texts) => [...texts] });
  const client = createClient({
    baseUrl: workerData.origin + '/v1',
    apiKey: workerData.key,
    contract,
    dispatcher,
    inspect: parts.includes('checks') ? runChecks : undefined,
    redactor: parts.includes('redact') ? createRedactorOf([workerData.key]) : unredacted,
  });
  const send = async (r) => {
    const [path, query] = (r.path.startsWith('/v1/') ? r.path.slice(3) : r.path).split('?');
    const headers = r.body !== undefined ? { 'content-type': 'application/json' } : undefined;
    await client.send({ method: r.method, path, query, operationId: r.operationId, body: r.body, headers });
  };
  return Object.assign(send, { close: () => dispatcher.close() });
}
`;

const requests = JSON.parse(readFileSync(process.env.BENCH_LEAN_REQUESTS ?? '', 'utf8')) as ReplayedRequest[];
const server = await startReferenceServer({ keys: [{ key: BENCH_KEY, plan: 'enterprise', perMinute: 1_000_000_000, perDay: 1_000_000_000 }], log: () => {} });
const origin = new URL(server.url).origin;
const undici = createRequire(import.meta.url).resolve('undici');
const dist = pathToFileURL(join(REPO_ROOT, 'dist')).href;
const contract = `${dist}/contract/index.js`;
const stack = process.env.BENCH_LEAN_STACK ?? 'undici';
const halves = [requests.filter((_, i) => i % 2 === 0), requests.filter((_, i) => i % 2 === 1)];
const workers = halves.map((half) => new Worker(CLIENT, { eval: true, workerData: { origin, undici, contract, dist, stack, key: BENCH_KEY, requests: half } }));
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
