import { describe, expect, test } from 'vitest';
import { shellWords } from '../../bench/lib/har-requests.ts';
import { toCurl } from '../../src/client/curl.ts';

// The lean harness replays a run's requests from its curl lines: the body it sends must be the one the run sent.
describe('bench: a curl line read back into the request it reproduces', () => {
  test.each([
    ['plain', '{"name":"doggie","categoryId":1}'],
    ['quotes and a newline', `{"name":"it's \\"odd\\"\\n","categoryId":9223372036854775807}`],
    ['unicode and shell characters', '{"name":"Ω 😚 $HOME `x` \\\\ !","status":"pending"}'],
  ])('%s', (_label, body) => {
    const line = toCurl({ method: 'POST', url: 'http://127.0.0.1:1/v1/pets', shellHeaders: { Authorization: 'Bearer $API_KEY' }, body });
    const words = shellWords(line);
    expect(words.slice(0, 5)).toEqual(['curl', '-sS', '-X', 'POST', 'http://127.0.0.1:1/v1/pets']);
    expect(words).toContain('Authorization: Bearer $API_KEY');
    expect(words[words.indexOf('--data-raw') + 1]).toBe(body);
  });
});
