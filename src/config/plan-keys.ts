import { HarnessError } from '../errors.ts';
import { refuseControlCharacters } from './values.ts';
import { PLAN_KEY_FORM, type PlanKey, parsePlanKey } from './plans.ts';

/**
 * --plan-key / ASC_PLAN_KEY: `<plan>=<key>`, repeatable, each value also a comma list (the environment's
 * form). Remote only (the embedded reference has its own Free key); each key a key of its own, since its
 * window is spent. The key is never echoed: an error names the entry by its position.
 */
export function parsePlanKeys(
  setting: { value: readonly string[]; from: string } | undefined,
  target: string | undefined,
  otherKeys: readonly (string | undefined)[],
): readonly PlanKey[] {
  if (setting === undefined) return Object.freeze([]);
  const entries = setting.value
    .flatMap((item) => item.split(/[,\n]/))
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length > 0 && !target)
    throw new HarnessError('ERR_CONFIG', `${setting.from} applies to a remote target; the embedded reference has its own Free-plan key`);
  const keys = entries.map((entry, i) => {
    refuseControlCharacters(entry, `${setting.from}: entry ${i + 1}`, 'key');
    const parsed = parsePlanKey(entry);
    if (!parsed) throw new HarnessError('ERR_CONFIG', `${setting.from}: entry ${i + 1} must be ${PLAN_KEY_FORM}`);
    if (otherKeys.includes(parsed.key))
      throw new HarnessError(
        'ERR_CONFIG',
        `${setting.from}: entry ${i + 1} repeats --api-key or --exhaust-key; a plan key is a key of its own (its window is spent)`,
      );
    return Object.freeze(parsed);
  });
  if (new Set(keys.map((k) => k.key)).size !== keys.length) throw new HarnessError('ERR_CONFIG', `${setting.from} names one key twice`);
  return Object.freeze(keys);
}
