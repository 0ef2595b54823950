import { describe, expect, it } from 'vitest';
import { type RuleExchange, evaluateRule } from '../../src/checks/judgment-rules.ts';
import { contract } from './context.ts';
import { cleanProbe, wired } from './wire-exchanges.ts';

/** HTTP-001's probes judged again from the log's record of the wire: what the probe finds live, found again. */
const judged = (exchanges: RuleExchange[]) => evaluateRule('framing-probe-kept', exchanges, {}, contract);
const QUIET = { bytes: 0, closed: false };
const CLOSED = { bytes: 0, closed: true };

describe('framing-probe-kept', () => {
  it('holds on a clean run, and on a pipelined pair alone (quick)', () => {
    expect(judged(cleanProbe()).holds).toBe(true);
    expect(judged(cleanProbe().slice(1)).holds).toBe(true);
  });

  it('holds on a close the answer announced, the pair then on a new connection', () => {
    const lone = wired('lone', 200, { head: 'Connection: close\r\n', heard: CLOSED });
    const [, first, second] = cleanProbe();
    const moved = [first, second].map((e) => ({ ...e!, wire: { ...e!.wire!, connection: 2 } }));
    expect(judged([lone, ...moved]).holds).toBe(true);
  });

  it('fails a close the answer did not announce, and a pair moved to another connection without one', () => {
    expect(judged([wired('lone', 200, { heard: CLOSED })]).actual).toMatch(/closed the connection after an answer without Connection: close/);
    const [lone, first, second] = cleanProbe();
    const moved = [first, second].map((e) => ({ ...e!, wire: { ...e!.wire!, connection: 2 } }));
    expect(judged([lone!, ...moved]).actual).toMatch(/another connection while the first stayed open/);
  });

  it('holds after a first run that only lost a request; fails one that heard bytes out of place', () => {
    const lost = [wired('lone', 0, { run: 1 })];
    expect(judged([...lost, ...cleanProbe(2)]).holds).toBe(true);
    const desync = [wired('lone', 200, { run: 1, heard: { bytes: 120, closed: false } })];
    expect(judged([...desync, ...cleanProbe(2)]).actual).toMatch(/120 more bytes/);
    expect(judged([...cleanProbe(1), ...cleanProbe(2)]).actual).toMatch(/ran again after a run that lost nothing/);
  });

  it('fails answers swapped, a pair cut short, an answer after Connection: close, and a dropped record', () => {
    const [lone, first] = cleanProbe();
    expect(judged([lone!, wired('first', 401), wired('second', 200, { heard: QUIET })]).actual).toMatch(/answers are swapped/);
    expect(judged([lone!, first!]).actual).toMatch(/second pipelined request has no record/);
    expect(judged([lone!]).actual).toMatch(/pipelined requests after the lone one have no record/);
    const closing = wired('first', 200, { head: 'Connection: close\r\n', heard: QUIET });
    expect(judged([lone!, closing]).holds).toBe(true);
    expect(judged([lone!, closing, wired('after-close', 200)]).actual).toMatch(/after an answer that said Connection: close answered 200/);
    expect(judged([lone!, { ...first!, wire: undefined }, cleanProbe()[2]!]).actual).toMatch(/no record of the wire/);
  });

  it('fails where the record cannot be read again: a cut answer, a status the bytes do not give, a key where none was sent', () => {
    const [lone, first, second] = cleanProbe();
    const cut = { ...lone!, heardAfter: CLOSED, wire: { ...lone!.wire!, read: { text: 'HTTP/1.1 200', size: 90_000, cut: true as const } } };
    expect(judged([cut]).actual).toMatch(/cannot be read again/);
    expect(judged([{ ...lone!, status: 204 }, first!, second!]).actual).toMatch(/recorded answer says 200, the log's status 204/);
    expect(judged([lone!, first!, wired('second', 401, { heard: QUIET, keyed: true })]).actual).toMatch(/sent a key/);
  });

  it("judges the close probe's: nothing may answer the request after an upload refused with Connection: close", () => {
    const upload = wired('upload', 413, { head: 'Connection: close\r\n', body: '' });
    expect(judged([...cleanProbe(), upload]).holds).toBe(true);
    expect(judged([...cleanProbe(), upload, wired('after-upload', 401)]).actual).toMatch(/said Connection: close answered 401/);
  });
});
