import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/client/index.ts';
import { HarnessError } from '../../src/errors.ts';
import { recordOutcome } from '../../src/harness/record-outcome.ts';
import type { ConformanceMeta } from '../../src/report/test-meta.ts';

const meta = (exchanges: Array<Pick<Exchange, 'seq'>>) =>
  ({ requirementId: 'DEP-001', level: 'MUST', area: 'deprecation', findings: [], exchanges }) as unknown as ConformanceMeta;

describe("recordOutcome: the client's rate-limit contradiction", () => {
  const error = () => new HarnessError('ERR_RATE_LIMIT_CONTRADICTED', "the run's first 429 on its key came right after …");

  it('is a RATE-004 finding on the 429 the test sent, and the test skips', () => {
    const sent = meta([{ seq: 18 }, { seq: 19 }]);
    expect(recordOutcome(sent, error())).toMatch(/first 429/);
    expect(sent.findings).toEqual([expect.objectContaining({ requirementId: 'RATE-004', check: 'rate-limit-contradiction', exchangeSeq: 19 })]);
    expect(sent.skipCode).toBe('precondition');
  });

  it('is no finding on a test that sent nothing (a shared measurement): never one named on no exchange', () => {
    const shared = meta([]);
    expect(recordOutcome(shared, error())).toMatch(/first 429/);
    expect(shared.findings).toEqual([]);
    expect(shared.skipCode).toBe('precondition');
  });
});
