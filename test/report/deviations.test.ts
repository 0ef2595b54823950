import { describe, expect, test } from 'vitest';
import { parseExpectedDeviations } from '../../src/report/deviations.ts';

describe('expected deviations file', () => {
  test.each([
    ['YAML list', '- id: AUTH-009\n  reason: Our gateway strips WWW-Authenticate.\n'],
    ['JSON list', '[{"id":"AUTH-009","reason":"Our gateway strips WWW-Authenticate."}]'],
    ['object with deviations', 'deviations:\n  - { id: AUTH-009, reason: Our gateway strips WWW-Authenticate. }\n'],
  ])('reads a %s', (_title, text) => {
    expect(parseExpectedDeviations(text)).toEqual([{ id: 'AUTH-009', reason: 'Our gateway strips WWW-Authenticate.' }]);
  });

  test('an empty file declares nothing', () => {
    expect(parseExpectedDeviations('')).toEqual([]);
  });

  test.each([
    ['not a list', 'id: AUTH-009', /expected a list/],
    ['an entry without reason', '- id: AUTH-009', /AUTH-009 needs a reason/],
    ['an entry without id', '- reason: because', /entry 1 has no id/],
    ['a duplicate', '- { id: A-001, reason: r }\n- { id: A-001, reason: r }', /listed twice/],
    ['broken YAML', '- { id: [', /not YAML or JSON/],
  ])('rejects %s as a configuration error', (_title, text, message) => {
    expect(() => parseExpectedDeviations(text)).toThrow(expect.objectContaining({ code: 'ERR_CONFIG', message: expect.stringMatching(message) }));
  });
});
