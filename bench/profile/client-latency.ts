import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { runChecks } from '../../src/checks/index.ts';
import { createClient, createLedgerBudget, type TargetClient } from '../../src/client/index.ts';
import { createContract } from '../../src/contract/index.ts';
import { forkChild } from '../lib/children.ts';
import { fmt } from '../lib/stats.ts';

/**
 * `tsx bench/profile/client-latency.ts [n]`: the cost of one sequential request as the suites send
 * it (src/client: serial queue, ledger budget, lossless parse, every always-on check, exchange record)
 * against a bare undici request, both to a reference in its own process. Says how many requests a
 * 10-second run can afford.
 */
const n = Number(process.argv[2] ?? '2000');

async function timed(label: string, count: number, fn: (i: number) => Promise<unknown>): Promise<string> {
  for (let i = 0; i < 50; i += 1) await fn(i);
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < count; i += 1) await fn(i);
  const wall = (performance.now() - started) / count;
  const used = process.cpuUsage(cpu);
  return `| ${label} | ${fmt(wall, 2)} ms | ${fmt((used.user + used.system) / 1000 / count, 2)} ms |`;
}

const child = await forkChild('reference-child', { BENCH_SEED_PETS: '20' });
const dir = mkdtempSync(join(tmpdir(), 'bench-latency-'));
const dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: 4 });
try {
  const ledger = join(dir, 'ledger');
  writeFileSync(ledger, '');
  const contract = createContract();
  const client: TargetClient = createClient({
    inspect: runChecks,
    baseUrl: child.url,
    apiKey: 'bench-key',
    contract,
    dispatcher,
    budget: createLedgerBudget(ledger, undefined),
    onExchange: () => {},
  });
  const headers = { authorization: 'Bearer bench-key', accept: 'application/json' };
  const rows = [
    '| request (sequential) | wall/request | client CPU/request |',
    '|---|---|---|',
    await timed('undici GET /pets?limit=20', n, async () => (await request(`${child.url}/pets?limit=20`, { headers, dispatcher })).body.text()),
    await timed('client.listPets({limit:20})', n, () => client.listPets({ limit: 20 })),
    await timed('client.createPet(valid)', n, (i) => client.createPet({ name: `bench ${i}`, categoryId: 1n })),
    await timed('client.getPet(1)', n, () => client.getPet('1')),
  ];
  process.stdout.write(`${rows.join('\n')}\n`);
} finally {
  await dispatcher.close();
  await child.stop();
  rmSync(dir, { recursive: true, force: true });
}
