import { replayStoreModel } from '../../model/replay-store-model.ts';
import { type JudgmentRule, bad, fails, holds } from './rule-kit.ts';

const EXPECTED = "a sequence of createPet, getPet and listPets that agrees with a model of the store (CON-002's commands)";

/**
 * CON-002's model, run again over one recorded sequence: the judgment names a model run's exchanges in
 * the order they were sent, and the commands judge each recorded answer as they did live. The run's tag
 * is a param; a forged one cannot help a forger, since every created name must start with it, and a
 * shorter tag only makes more listed pets "ours".
 */
export const MODEL_RULES: readonly JudgmentRule[] = [
  {
    name: 'store-model',
    readsBody: true,
    // A list the log cut is skipped by the replay (lists change nothing the model holds); a cut Pet is not.
    judgesCut: (e) => e.operationId === 'listPets',
    judge: () => holds(EXPECTED),
    judgeAll(exchanges, params) {
      const tag = params.tag;
      if (typeof tag !== 'string' || tag === '') return bad('store-model');
      const failure = replayStoreModel(
        exchanges.map((e) => ({
          operationId: e.operationId,
          url: e.url,
          requestText: e.requestText,
          answer: { status: e.status, body: e.body, text: e.text },
          bodyCut: e.bodyCut === true,
        })),
        tag,
      );
      if (!failure) return holds(EXPECTED);
      return { ...fails(failure.expected, failure.actual), failedAt: failure.failedAt };
    },
  },
];
