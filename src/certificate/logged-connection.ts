import type { CheckContext } from '../checks/check-types.ts';
import { isRecord } from './strict-json.ts';

/**
 * An entry's `_connection` as the checks read it (HTTP-001's `nothing-unasked` and
 * `connection-kept-open`): the stray bytes a pooled connection received before the response, and the
 * drop its request was retried after. Read defensively: a field not as this suite writes it is left out,
 * and a check that then finds nothing differs from a report that records its finding.
 */
export function loggedConnection(value: unknown): Pick<CheckContext, 'strayBefore' | 'droppedBefore'> | undefined {
  if (!isRecord(value)) return undefined;
  const out: Pick<CheckContext, 'strayBefore' | 'droppedBefore'> = {};
  const stray = value.strayBefore;
  if (isRecord(stray) && typeof stray.bytes === 'string' && Number.isSafeInteger(stray.count))
    out.strayBefore = { bytes: stray.bytes, count: stray.count as number };
  const drop = value.droppedBefore;
  if (isRecord(drop) && typeof drop.error === 'string' && Number.isSafeInteger(drop.drops) && Number.isSafeInteger(drop.answered)) {
    const idleMs = typeof drop.idleMs === 'number' && Number.isFinite(drop.idleMs) ? drop.idleMs : undefined;
    out.droppedBefore = { error: drop.error, idleMs, drops: drop.drops as number, answered: drop.answered as number };
  }
  return out.strayBefore || out.droppedBefore ? out : undefined;
}
