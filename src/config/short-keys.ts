import { KEY_FRAGMENT } from '../client/key-fragments.ts';

/**
 * A warning for each key shorter than the fragments redaction looks for (KEY_FRAGMENT characters).
 * Everything the run records has its keys removed, and the whole of a key this short turns up in ordinary
 * text (an id, a number, a word): redaction removes it there too, and a pass decided on such an answer is
 * one the log cannot prove, so its requirement is left untested (`unprovable`). The run is not refused:
 * the verdict stays right, only less complete. The key itself is never echoed, only its length.
 */
export function shortKeyWarnings(keys: ReadonlyArray<{ key: string | undefined; from: string }>): string[] {
  return keys.flatMap(({ key, from }) =>
    key !== undefined && key.length < KEY_FRAGMENT
      ? [
          `${from} is ${key.length} character${key.length === 1 ? '' : 's'} long: the run removes the key from everything it records, and a key this short also turns up in ordinary text (ids, numbers, words), so requirements decided there are left untested (unprovable). A key of ${KEY_FRAGMENT} characters or more makes that rare.`,
        ]
      : [],
  );
}
