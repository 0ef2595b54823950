import { startReferenceServer } from '../../src/reference/index.ts';
import { BENCH_KEY } from '../parts/common.ts';

/**
 * The reference server in its own process, so the load generator does not share its event loop.
 * Forked with IPC: it sends {type:'ready', url}; on {type:'rss'} it answers {type:'rss', rss, heapUsed, unexpected}
 * (after a GC when run with --expose-gc); on {type:'cpu'} with its process.cpuUsage(); on {type:'stop'} it closes and exits.
 */

const seedPets = Number(process.env.BENCH_SEED_PETS ?? '0');
// The abuse bench sends thousands of requests without a valid key: it lifts the per-address limits.
// How often the server took its last-resort path (an unexpected error); reported with the RSS.
let unexpected = 0;
const roomyAnonymous = process.env.BENCH_ROOMY_ANONYMOUS === '1';
const server = await startReferenceServer({
  keys: [{ key: BENCH_KEY, plan: 'enterprise', perMinute: 1_000_000_000, perDay: 1_000_000_000 }],
  ...(seedPets > 0 ? { seedPets } : {}),
  ...(roomyAnonymous ? { anonymousLimits: { perMinute: 1_000_000_000, perDay: 1_000_000_000 } } : {}),
  log: () => void (unexpected += 1),
});

const gc = (globalThis as { gc?: () => void }).gc;

process.on('message', (message: { type: string }) => {
  if (message.type === 'rss') {
    gc?.();
    gc?.();
    const usage = process.memoryUsage();
    process.send?.({ type: 'rss', rss: usage.rss, heapUsed: usage.heapUsed, gc: gc !== undefined, unexpected });
  } else if (message.type === 'cpu') {
    process.send?.({ type: 'cpu', ...process.cpuUsage() });
  } else if (message.type === 'stop') {
    void server.close().then(() => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready', url: server.url, rss: process.memoryUsage().rss });
