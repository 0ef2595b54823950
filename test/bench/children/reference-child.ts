import { startReferenceServer } from '../../../src/reference/index.ts';

/**
 * The reference server in its own process, so the load generator does not share its event loop.
 * Forked with IPC: it sends {type:'ready', url}; on {type:'rss'} it answers {type:'rss', rss, heapUsed}
 * (after a GC when run with --expose-gc); on {type:'stop'} it closes and exits.
 */
export const BENCH_KEY = 'bench-key';

const seedPets = Number(process.env.BENCH_SEED_PETS ?? '0');
const server = await startReferenceServer({
  keys: [{ key: BENCH_KEY, plan: 'enterprise', perMinute: 1_000_000_000, perDay: 1_000_000_000 }],
  ...(seedPets > 0 ? { seedPets } : {}),
  log: () => {},
});

const gc = (globalThis as { gc?: () => void }).gc;

process.on('message', (message: { type: string }) => {
  if (message.type === 'rss') {
    gc?.();
    gc?.();
    const usage = process.memoryUsage();
    process.send?.({ type: 'rss', rss: usage.rss, heapUsed: usage.heapUsed, gc: gc !== undefined });
  } else if (message.type === 'stop') {
    void server.close().then(() => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready', url: server.url, rss: process.memoryUsage().rss });
