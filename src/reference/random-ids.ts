import { randomBytes } from 'node:crypto';

/** Where new ids come from: the next one not `taken`. */
export type IdSource = (taken: (id: bigint) => boolean) => bigint;

/**
 * Random int64 ids, negative ones included: the random-ids variant (the interface shows no id scheme),
 * and where a sequence that started near the end of int64 goes on.
 */
export const randomIds: IdSource = (taken) => {
  for (;;) {
    const id = randomBytes(8).readBigInt64BE();
    if (!taken(id)) return id;
  }
};
