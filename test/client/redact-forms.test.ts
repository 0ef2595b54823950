import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/client/redact.ts';

const KEY = 'sk-live-Recognisable-7f3a9c2e51';

describe('redactor: the forms of the key a hostile target can echo back', () => {
  const redact = createRedactor(KEY);
  it.each([
    ['the key', KEY],
    ['the key in upper case', KEY.toUpperCase()],
    ['the key without its last character (AUTH-005)', KEY.slice(0, -1)],
    ['a same-shape key with a rotated tail (AUTH-002)', `${KEY.slice(0, -8)}e517f3a9`],
    ['base64 of the key (Basic)', Buffer.from(KEY).toString('base64')],
    ['base64 of "key:" (Basic)', Buffer.from(`${KEY}:`).toString('base64')],
    ['the key percent-encoded', encodeURIComponent(KEY)],
  ])('scrubs %s', (_label, form) => {
    const out = redact(`{"echo":"Bearer ${form}","next":"/v1/pets"}`);
    expect(out).not.toContain(form);
    expect(out).not.toMatch(/Recognisable/i);
    expect(out).toContain('"next":"/v1/pets"');
  });

  it('leaves text without the key alone', () => {
    expect(redact('GET /v1/pets?limit=20 sk-other-key')).toBe('GET /v1/pets?limit=20 sk-other-key');
  });
});
