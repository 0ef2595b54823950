import { request, Agent } from 'undici';
import { startReferenceServer } from './src/reference/index.ts';
import { createClient, createMemoryBudget } from './src/client/index.ts';
import { createContract } from './src/contract/index.ts';
const contract = createContract();
const server = await startReferenceServer({ contract, keys: [{ key: 'k', plan: 'enterprise', perMinute: 1e9, perDay: 1e9 }], seedPets: 100 });
const dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: 4 });
const N = 2000;
async function time(label: string, fn: () => Promise<unknown>) {
  for (let i = 0; i < 200; i++) await fn();
  const c0 = process.cpuUsage(); const t0 = performance.now();
  for (let i = 0; i < N; i++) await fn();
  const c = process.cpuUsage(c0); const t = performance.now() - t0;
  console.log(label.padEnd(30), (t / N * 1000).toFixed(0), 'µs wall/req', ((c.user + c.system) / N).toFixed(0), 'µs cpu/req');
}
const body = JSON.stringify({ name: 'x', categoryId: 1, status: 'available' });
await time('raw undici POST', async () => { const r = await request(server.url + '/pets', { dispatcher, method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body }); await r.body.text(); });
await time('raw undici GET limit=100', async () => { const r = await request(server.url + '/pets?limit=100', { dispatcher, method: 'GET', headers: { authorization: 'Bearer k' } }); await r.body.text(); });
const client = createClient({ baseUrl: server.url, apiKey: 'k', contract, dispatcher, budget: createMemoryBudget(undefined), onExchange() {} });
await time('client createPet', () => client.createPet({ name: 'x', categoryId: 1n, status: 'available' }));
await time('client listPets limit=100', () => client.listPets({ limit: 100 }));
await time('client getPet', () => client.getPet(5n));
await server.close(); await dispatcher.close();
