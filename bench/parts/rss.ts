import { BENCH_KEY_HEADERS, NEW_PET_BODY, type Row } from './common.ts';
import { forkChild } from '../lib/children.ts';
import { send } from '../lib/load.ts';
import { progress } from '../lib/paths.ts';
import { fmt } from '../lib/stats.ts';

interface RssReply {
  rss: number;
  heapUsed: number;
  gc: boolean;
}

const MB = 1024 * 1024;

/** RSS of the reference (child, after GC) empty, after `pets` createPet calls over HTTP, and with seedPets. */
export async function benchRss(pets: number): Promise<Row[]> {
  const child = await forkChild('reference-child');
  let empty: RssReply;
  let full: RssReply;
  let load;
  try {
    empty = await child.ask<RssReply>('rss');
    progress(`rss: creating ${pets} pets over HTTP`);
    load = await send(
      { url: `${child.url}/pets`, method: 'POST', headers: { ...BENCH_KEY_HEADERS, 'content-type': 'application/json' }, body: NEW_PET_BODY },
      pets,
      10,
    );
    full = await child.ask<RssReply>('rss');
  } finally {
    await child.stop();
  }
  progress(`rss: seedPets ${pets}`);
  const seeded = await forkChild('reference-child', { BENCH_SEED_PETS: String(pets) });
  let seededRss: RssReply;
  try {
    seededRss = await seeded.ask<RssReply>('rss');
  } finally {
    await seeded.stop();
  }
  const perPet = (full.heapUsed - empty.heapUsed) / pets;
  return [
    {
      measure: `reference RSS after ${fmt(pets)} pets created over HTTP`,
      value: `${fmt(full.rss / MB, 1)} MB (empty: ${fmt(empty.rss / MB, 1)} MB)`,
      notes:
        `heap ${fmt(empty.heapUsed / MB, 1)} → ${fmt(full.heapUsed / MB, 1)} MB, ≈ ${fmt(perPet)} B/pet; ` +
        `${fmt(load.rps)} creates/s, ${load.non2xx + load.errors} non-2xx/errors; GC ${full.gc ? 'forced' : 'not exposed'}`,
    },
    {
      measure: `reference RSS with seedPets: ${fmt(pets)}`,
      value: `${fmt(seededRss.rss / MB, 1)} MB`,
      notes: `heap ${fmt(seededRss.heapUsed / MB, 1)} MB`,
    },
  ];
}
