import { describe, expect, it } from 'vitest';
import { runChecks } from '../../src/checks/index.ts';
import { createRedactor } from '../../src/client/redact.ts';
import { ctx } from './context.ts';

const KEY = 'sk-live-Recognisable-7f3a9c2e51';
const redact = createRedactor(KEY);

/** Every run of 8 characters of the key, lower-cased. */
const FRAGMENTS = Array.from({ length: KEY.length - 7 }, (_, i) => KEY.slice(i, i + 8).toLowerCase());

function expectNoFragment(text: string): void {
  for (const fragment of FRAGMENTS) expect(text.toLowerCase().includes(fragment), `${fragment} in ${text}`).toBe(false);
}

/**
 * A check quotes target text cut at 60 or 80 characters. The cut must come after redaction: cut first, a
 * key placed across the cut leaves a piece the client's later redaction of the finding cannot see whole.
 * Here the findings are read as the check returns them, before any later redaction.
 */
describe('checks quote target text redacted whole, then cut', () => {
  const quoted = (at: number) => `${'x'.repeat(at)}Unauthorized: the API key ${KEY} is not valid`;

  it.each([10, 20, 25])('a body that is not JSON, the key %i characters in', (at) => {
    const findings = runChecks(ctx({ status: 401, headers: { 'content-type': 'application/json' }, text: quoted(at), body: undefined, isJson: false, redact }));
    expect(findings.length).toBeGreaterThan(0);
    for (const finding of findings) expectNoFragment(`${finding.expected} ${finding.actual}`);
  });

  it('a malformed header value (WWW-Authenticate, Retry-After, Sunset) holding the key', () => {
    const headers = {
      'content-type': 'application/json',
      'www-authenticate': quoted(40),
      'retry-after': quoted(50),
      sunset: quoted(45),
      'x-ratelimit-limit': quoted(55),
    };
    const findings = runChecks(ctx({ status: 401, headers, text: '{"code":"x","message":"y"}', body: { code: 'x', message: 'y' }, redact }));
    expect(findings.length).toBeGreaterThan(2);
    for (const finding of findings) expectNoFragment(`${finding.expected} ${finding.actual}`);
  });

  it('an Error.status that is not the HTTP status, holding the key', () => {
    const body = { code: 'unauthorized', message: 'no', status: quoted(20) };
    const findings = runChecks(ctx({ status: 401, json: body, redact }));
    expect(findings.map((f) => f.check)).toContain('error-status-matches');
    for (const finding of findings) expectNoFragment(`${finding.expected} ${finding.actual}`);
  });
});
