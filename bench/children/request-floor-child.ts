import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The least CPU one request of a run can cost on this machine: a bare node:http server on the main thread
 * (where the embedded reference runs) and a bare undici client on a worker thread (where the suites run),
 * one request at a time over a kept-alive connection, nothing checked, recorded or generated. Prints the
 * process's user + system CPU per request in µs, as JSON on stdout.
 */
const BODY = JSON.stringify({ name: 'doggie', status: 'available', tags: [{ id: 1, name: 'a' }] });
const ANSWER = JSON.stringify({ id: 1, name: 'doggie', status: 'available', tags: [{ id: 1, name: 'a' }] });
const MEASURED = Number(process.env.BENCH_FLOOR_REQUESTS ?? 4000);

/** The client's thread, in plain JavaScript: a worker does not inherit tsx's loader. */
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const { Client } = require(workerData.undici);
const client = new Client('http://127.0.0.1:' + workerData.port);
const once = async () => {
  const answer = await client.request({ path: '/v1/pets', method: 'POST', body: workerData.body, headers: { 'content-type': 'application/json' } });
  await answer.body.text();
};
(async () => {
  for (let i = 0; i < 500; i += 1) await once();
  parentPort.postMessage({ start: true });
  await new Promise((resolve) => parentPort.once('message', resolve));
  for (let i = 0; i < workerData.requests; i += 1) await once();
  parentPort.postMessage({ done: true });
  await client.close();
})();
`;

const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(201, { 'content-type': 'application/json', 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '999' });
    response.end(ANSWER);
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
const undici = createRequire(import.meta.url).resolve('undici');
const worker = new Worker(CLIENT, { eval: true, workerData: { port, undici, body: BODY, requests: MEASURED } });
const cpuMicros = await new Promise<number>((resolve, reject) => {
  worker.once('message', (from: { start: true } | { done: true }) => {
    if (!('start' in from)) return;
    const before = process.cpuUsage();
    worker.once('message', () => {
      const used = process.cpuUsage(before);
      resolve((used.user + used.system) / MEASURED);
    });
    worker.postMessage('go');
  });
  worker.once('error', reject);
});
await worker.terminate();
server.close();
process.stdout.write(`${JSON.stringify({ cpuMicrosPerRequest: cpuMicros, requests: MEASURED })}\n`);
