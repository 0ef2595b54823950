import { CHECKS, runChecks } from '../../src/checks/registry.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import type { Contract } from '../../src/contract/index.ts';
import { JUDGED_ON_EVERY_EXCHANGE } from '../../src/certificate/coverage.ts';
import { checkContextOf, readHarEntries } from '../../src/certificate/rejudge-har.ts';
import type { RejudgeOptions } from '../../src/certificate/rejudge.ts';
import { toHar } from '../../src/report/har.ts';
import { numberExchangesOnce } from '../../src/report/test-outcomes.ts';
import type { TestOutcome } from '../../src/report/report-types.ts';

/**
 * What rejudge holds a made-up run to: none of the tables of the judgments a pass of a requirement
 * makes (src/certificate/coverage.ts). A made-up pass judges by one placeholder, not by the rules this
 * suite's test of its requirement records; everything else is held as for a real run, and the tables
 * are proven on real runs (test/verdicts/rejudge.test.ts, valid-variants.test.ts, fault-sensitivity.test.ts).
 */
export const MADE_UP: RejudgeOptions = {
  judgedByEveryPass: {},
  judgedOnEveryExchange: {},
  paramsOfEveryJudgment: {},
  statusesAllowed: {},
  everyExchangeNamed: [],
  requestsOfEveryPass: {},
  casesOfEveryPass: {},
};

/**
 * Makes synthetic test outcomes what a real run records, so that `rejudge` (and `verify`, which runs it)
 * finds the log and the report in agreement: every exchange whole (a summarised one gets the headers and
 * body a valid server sends for its status), the always-on findings exactly those the checks give on
 * them, and every passed test a judgment on an exchange of its own (one is added where it has none, sent
 * at the latest exchange's time or the run's start). A passed test of a requirement whose every exchange
 * of an operation must be judged by named rules keeps none of those exchanges.
 */
export function asLogged(tests: readonly TestOutcome[], contract: Contract, runStart: number): TestOutcome[] {
  return numberedAsLogged(judgedAsLogged(tests, contract, runStart));
}

/**
 * Numbers the exchanges as a run does (1..N in the order they were sent, src/report/test-outcomes.ts),
 * and each file's as that file would have: 1..n, none left out (the fixture's own numbers have gaps).
 */
function numberedAsLogged(tests: readonly TestOutcome[]): TestOutcome[] {
  const numbered = numberExchangesOnce(tests);
  const ofFile = new Map<string, number[]>();
  for (const test of numbered) for (const e of test.meta?.exchanges ?? []) ofFile.set(test.file, [...(ofFile.get(test.file) ?? []), e.seq]);
  const rank = new Map([...ofFile].map(([file, seqs]) => [file, [...new Set(seqs)].sort((a, b) => a - b)]));
  return numbered.map((test) =>
    test.meta
      ? { ...test, meta: { ...test.meta, exchanges: test.meta.exchanges.map((e) => ({ ...e, fileSeq: (rank.get(test.file)?.indexOf(e.seq) ?? 0) + 1 })) } }
      : test,
  );
}

function judgedAsLogged(tests: readonly TestOutcome[], contract: Contract, runStart: number): TestOutcome[] {
  const all = tests.flatMap((t) => t.meta?.exchanges ?? []);
  let seq = all.reduce((max, e) => Math.max(max, e.seq), 0);
  const latest = all.reduce((max, e) => Math.max(max, e.startedAt), 0);
  return tests.map((test) => {
    if (!test.meta) return test;
    // A real pass of a property or model test judges every exchange of its operations by its rules
    // (src/certificate/coverage.ts): a synthetic one keeps only its other exchanges.
    const covered = test.state === 'passed' ? JUDGED_ON_EVERY_EXCHANGE[test.meta.requirementId] : undefined;
    const exchanges = test.meta.exchanges.filter((e) => e.sharedFrom || !(covered && e.operationId && covered[e.operationId])).map(whole);
    if (test.state === 'passed' && exchanges.filter((e) => !e.sharedFrom).length === 0) {
      seq += 1;
      exchanges.push(
        whole({
          seq,
          startedAt: Math.max(latest, runStart),
          durationMs: 1,
          operationId: 'listPets',
          // The model lists with limit=100 (a page it can compare whole).
          request: { method: 'GET', url: `https://impl.example/v1/pets${covered?.listPets ? '?limit=100' : ''}`, headers: {} },
          response: { status: 200, headers: {} },
          curl: 'curl',
        }),
      );
    }
    const entries = readHarEntries(
      toHar(
        exchanges.filter((e) => !e.sharedFrom),
        { name: 'fixture', version: '0' },
      ),
    );
    const checked = 'entries' in entries ? entries.entries.flatMap((entry) => runChecks(checkContextOf(entry, contract))) : [];
    // Findings of a check the registry does not hold are kept: rejudge takes them as recorded.
    const other = test.meta.findings.filter((f) => !checked.some((c) => c.check === f.check) && !isRegistryCheck(f.check));
    const meta = { ...test.meta, exchanges, findings: [...other, ...checked] };
    const first = exchanges.find((e) => !e.sharedFrom);
    if (test.state === 'passed' && first) {
      // A status judgment: rejudge evaluates it again (a check's condition is not in the log, so a
      // check would leave the test unproven).
      meta.judgments = [{ kind: 'status', exchange: first.seq, allowed: [first.response?.status ?? 0] }];
      // The model test judges every request, the one added too: an empty list of an empty store.
      if (covered?.listPets && first.operationId === 'listPets') {
        meta.judgments.push({ kind: 'rule', rule: 'store-model', params: { tag: 'conformance-fixture' }, exchanges: [first.seq] });
      }
      meta.observed = meta.judgments.length;
    }
    return { ...test, meta };
  });
}

const REGISTRY = new Set(CHECKS.map((c) => c.name));
const isRegistryCheck = (name: string) => REGISTRY.has(name);

/** The exchange with the headers and body a valid server sends for its status, when it was summarised. */
function whole(exchange: Exchange): Exchange {
  if (!exchange.response || Object.keys(exchange.response.headers).length > 0) return exchange;
  const { status } = exchange.response;
  const reset = String(Math.floor(exchange.startedAt / 1000) + 60);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-ratelimit-limit': '1000',
    'x-ratelimit-remaining': '900',
    'x-ratelimit-reset': reset,
  };
  let body = exchange.operationId === 'listPets' ? '[]' : '{"id":1,"name":"rex","categoryId":1}';
  if (status >= 400) body = JSON.stringify({ code: 'refused', message: 'refused', status });
  if (status === 401) headers['www-authenticate'] = 'Bearer';
  if (status === 429) {
    headers['x-ratelimit-remaining'] = '0';
    headers['retry-after'] = '60';
  }
  return { ...exchange, response: { status, headers, body } };
}
