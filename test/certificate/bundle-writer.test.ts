import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { writeCertificationBundle } from '../../src/certificate/index.ts';
import type { Har } from '../../src/report/har.ts';
import { exchange } from '../support/report-builders.ts';
import { sampleReport } from '../support/sample-report.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('certification bundle', () => {
  test('holds the reports, the HAR log, the badge and a manifest with the sha256 of each file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-bundle-'));
    dirs.push(dir);
    const { report, exchanges } = sampleReport({ exchangesPerTest: 2 });
    const manifest = writeCertificationBundle(report, exchanges, dir);

    expect(readdirSync(dir).sort()).toEqual(['badge.svg', 'conformance.html', 'conformance.json', 'exchanges.har', 'junit.xml', 'manifest.json']);
    expect(manifest).toMatchObject({
      verdict: 'not-conformant',
      seed: 424242,
      profile: 'standard',
      specSha256: report.run.specSha256,
      target: report.run.target,
    });
    expect(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))).toEqual(manifest);
    for (const file of manifest.files) {
      const bytes = readFileSync(join(dir, file.name));
      expect(file.sha256, file.name).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(file.bytes).toBe(bytes.length);
    }
    expect(manifest.files.map((f) => f.name).sort()).toEqual(['badge.svg', 'conformance.html', 'conformance.json', 'exchanges.har', 'junit.xml']);
    expect(readFileSync(join(dir, 'badge.svg'), 'utf8')).toContain('NOT CONFORMANT');
  });

  test('the HAR is HAR 1.2 in time order, carries bodies exactly, and no key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-bundle-'));
    dirs.push(dir);
    const { report } = sampleReport({ exchangesPerTest: 1 });
    const post = exchange(2, {
      operationId: 'createPet',
      request: {
        method: 'POST',
        url: 'https://api.example/v1/pets',
        headers: { authorization: 'Bearer ***', 'content-type': 'application/json' },
        body: '{"name":"a","categoryId":9223372036854775807}',
      },
    });
    const failedTransport = exchange(1, { response: undefined, error: { code: 'ERR_TARGET_TIMEOUT', message: 'no answer in time' } });
    writeCertificationBundle(report, [post, failedTransport], dir);
    const har = JSON.parse(readFileSync(join(dir, 'exchanges.har'), 'utf8')) as Har;
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries.map((e) => e._seq)).toEqual([1, 2]);
    const [timeout, created] = har.log.entries;
    expect(timeout!.response).toMatchObject({ status: 0, statusText: 'no answer in time', _error: { code: 'ERR_TARGET_TIMEOUT' } });
    expect(created!.request.postData).toEqual({ mimeType: 'application/json', text: '{"name":"a","categoryId":9223372036854775807}' });
    expect(created!.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer ***' });
    for (const entry of har.log.entries) {
      expect(Object.keys(entry)).toEqual(expect.arrayContaining(['startedDateTime', 'time', 'request', 'response', 'cache', 'timings']));
      expect(entry.startedDateTime).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
  });
});
