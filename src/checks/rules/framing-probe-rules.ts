import { finalResponse } from '../../text/http1-parse.ts';
import { type WirePlace, type WireRecord, keptBytes } from '../../text/wire-record.ts';
import { type JudgmentRule, type RuleExchange, type RuleResult, fails, holds } from './rule-kit.ts';

/**
 * HTTP-001's probes judged again from the log's record of the wire (`_wire`): the framing probe (a request
 * alone, then two pipelined; once more when the first run only lost a request) and the close probe (an
 * oversized upload and a request after it). The rule finds what the probe finds live, from the bytes and
 * close events the log keeps, so a pass stands only on records that show none of its problems.
 */

const EXPECTED = 'one response per request on a kept-alive connection, nothing after it, pipelined answers in order, a close only where announced';
const FRAMING: ReadonlySet<WirePlace> = new Set(['lone', 'first', 'second', 'after-close']);
const CLOSING: ReadonlySet<WirePlace> = new Set(['upload', 'after-upload']);

interface Problem {
  /** `lost`: what a blip of the network also does (the probe runs once more); `framing`: never a blip. */
  kind: 'lost' | 'framing';
  at: number;
  actual: string;
}

type Indexed = { e: RuleExchange & { wire: WireRecord }; at: number };

/** Whether the recorded answer announced the connection's end: Connection: close, HTTP/1.0, or a body to the close. */
function announcedClose(e: Indexed['e']): boolean | string {
  const kept = keptBytes(e.wire.read);
  if ('problem' in kept) return `its answer's bytes cannot be read again (${kept.problem})`;
  const response = finalResponse(kept.bytes);
  if ('malformed' in response) return `its recorded answer is not a response (${response.malformed})`;
  if (response.status !== e.status) return `its recorded answer says ${response.status}, the log's status ${e.status}`;
  return response.connectionClose || response.closeDelimited;
}

/** Whether the request's recorded bytes carry the key (redacted, but its field is there). */
function keyed(e: Indexed['e']): boolean {
  const sent = 'text' in e.wire.sent ? e.wire.sent.text : Buffer.from(e.wire.sent.base64, 'base64').toString('latin1');
  return /\r\nAuthorization: Bearer /i.test(sent.split('\r\n\r\n')[0] ?? '');
}

/** The problems of one run of the framing probe, as its live code finds them, plus what its records must show. */
function runProblems(run: readonly Indexed[]): Problem[] {
  const problems: Problem[] = [];
  const add = (kind: Problem['kind'], at: number, actual: string) => problems.push({ kind, at, actual });
  const places = run.map(({ e }) => e.wire.place);
  const shape = /^(lone,)?first(,second|,after-close)?$|^lone$/.test(places.join(','));
  if (!shape) add('framing', run[0]?.at ?? 0, `the probe's requests in an order it never sends them: ${places.join(', ')}`);
  const first = run.find(({ e }) => e.wire.place === 'first');
  for (const { e, at } of run) {
    const { place } = e.wire;
    if (keyed(e) !== (place === 'lone' || place === 'first'))
      add('framing', at, `#${at + 1} of the judgment sent ${keyed(e) ? 'a key' : 'no key'}, where the probe's ${place} request does not`);
    if (e.status === 0) {
      if (place === 'after-close') add('framing', at, 'a record of no answer after a close');
      else
        add(
          e.wire.read.size === 0 && e.wire.ended !== 'malformed' ? 'lost' : 'framing',
          at,
          `no whole answer to the ${place} request (${e.wire.ended} after ${e.wire.read.size} bytes)`,
        );
      continue;
    }
    if (e.wire.ended !== 'response') add('framing', at, `an answer whose reading ended ${e.wire.ended}`);
    if (place === 'after-close') add('framing', at, `the request after an answer that said Connection: close answered ${e.status} on the same connection`);
    const close = place === 'second' || place === 'lone' || place === 'first' ? announcedClose(e) : false;
    if (typeof close === 'string') {
      add('framing', at, close);
      continue;
    }
    // Where the probe always listens after the answer, what it heard is in the log, and must be nothing.
    const listened = place === 'lone' || place === 'second' || (place === 'first' && close);
    if (listened && !e.heardAfter) add('framing', at, `what followed the ${place} answer is not recorded`);
    if ((e.heardAfter?.bytes ?? 0) > 0) add('framing', at, `${e.heardAfter?.bytes} more bytes after the ${place} answer`);
    if (place === 'lone' && e.heardAfter?.closed && !close) add('lost', at, 'the target closed the connection after an answer without Connection: close');
    if (place === 'first' && close && places.includes('second')) add('framing', at, 'a second answer read after one that said Connection: close');
    if (place === 'first' && !close && !places.includes('second')) add('framing', at, 'the second pipelined request has no record');
    if (place === 'lone' && !e.heardAfter?.closed && first && first.e.wire.connection !== e.wire.connection)
      add('framing', first.at, 'the pipelined requests went on another connection while the first stayed open');
  }
  const second = run.find(({ e }) => e.wire.place === 'second');
  if (first && second && second.e.wire.connection !== first.e.wire.connection)
    add('framing', second.at, 'the two pipelined requests recorded on two connections');
  if (first && second && first.e.status === 401 && second.e.status >= 200 && second.e.status < 300)
    add('framing', second.at, `${first.e.status} to the keyed request, ${second.e.status} to the one without a key: the answers are swapped`);
  if (places[0] === 'lone' && run[0]?.e.status !== 0 && problems.length === 0 && !first)
    add('framing', run[0]?.at ?? 0, 'the pipelined requests after the lone one have no record');
  return problems;
}

/** The close probe's: a request after an answer that said Connection: close must go unanswered. */
function closeProblems(probe: readonly Indexed[]): Problem[] {
  const upload = probe.find(({ e }) => e.wire.place === 'upload');
  const after = probe.find(({ e }) => e.wire.place === 'after-upload');
  if (!after) return [];
  if (!upload || upload.e.status === 0) return [{ kind: 'framing', at: after.at, actual: 'an answer after an upload the log does not hold answered' }];
  const close = announcedClose(upload.e);
  if (typeof close === 'string') return [{ kind: 'framing', at: upload.at, actual: close }];
  return after.e.status === 0
    ? [{ kind: 'framing', at: after.at, actual: 'a record of no answer after the upload' }]
    : [
        {
          kind: 'framing',
          at: after.at,
          actual: `the request after ${close ? 'an answer that said Connection: close' : 'the upload'} answered ${after.e.status} on the same connection`,
        },
      ];
}

function judgeProbe(exchanges: readonly RuleExchange[]): RuleResult & { failedAt?: number } {
  const indexed = exchanges.map((e, at) => ({ e, at })).filter((x): x is Indexed => x.e.wire !== undefined);
  const runs = [...new Set(indexed.filter(({ e }) => FRAMING.has(e.wire.place)).map(({ e }) => e.wire.run))].sort((a, b) => a - b);
  const last = runs.at(-1);
  if (last === undefined) return fails(EXPECTED, 'no exchange of the framing probe judged');
  if (runs.length > 2 || runs.some((run, i) => run !== i + 1))
    return fails(EXPECTED, `the framing probe recorded as runs ${runs.join(', ')}: it runs once, or twice after a lost request`);
  const problemsOf = (run: number) => runProblems(indexed.filter(({ e }) => FRAMING.has(e.wire.place) && e.wire.run === run));
  // An earlier run may only have lost a request (a blip of the network does that); the last may have nothing.
  const earlier = runs.length === 2 ? problemsOf(1) : [];
  if (runs.length === 2 && earlier.length === 0) return fails(EXPECTED, 'the framing probe ran again after a run that lost nothing');
  const blip = earlier.find((p) => p.kind !== 'lost');
  const [problem] = [...(blip ? [blip] : []), ...problemsOf(last), ...closeProblems(indexed.filter(({ e }) => CLOSING.has(e.wire.place)))];
  if (problem) return { ...fails(EXPECTED, problem.actual), failedAt: problem.at };
  if (!indexed.some(({ e }) => FRAMING.has(e.wire.place) && e.wire.run === last && e.status !== 0)) return fails(EXPECTED, 'no answer to the probe');
  return holds(EXPECTED);
}

export const FRAMING_PROBE_RULES: readonly JudgmentRule[] = [
  {
    name: 'framing-probe-kept',
    readsBody: false,
    judgesRaw: true,
    judgesUnanswered: true,
    judge(e) {
      if (!e.wire) return fails(EXPECTED, 'the exchange has no record of the wire (`_wire`)');
      if (!FRAMING.has(e.wire.place) && !CLOSING.has(e.wire.place)) return fails(EXPECTED, `an exchange of another probe (${e.wire.place})`);
      return holds(EXPECTED);
    },
    judgeAll: (exchanges) => judgeProbe(exchanges),
  },
];
