import { describe, expect, it } from 'vitest';
import { allFiles, runCli, startStandalone, tempDir } from './cli-helpers.ts';

const KEY = 'sk-live-Recognisable-7f3a9c2e51';
/** The key in the forms a careless log line might take. */
const FORMS = [KEY, KEY.toLowerCase(), KEY.toUpperCase(), encodeURIComponent(KEY), Buffer.from(KEY).toString('base64')];

describe('redaction: the API key appears in no report, bundle, console line or error', () => {
  it.each([
    ['the right key (a conformant run, with a certification bundle)', KEY],
    ['a wrong key (every request refused: failures full of evidence)', 'right-key-only-the-server-knows-42'],
  ])('%s', async (_label, serverKey) => {
    const { url } = await startStandalone(`${serverKey}:enterprise:100000:1000000`);
    const reports = tempDir('redaction-reports-');
    const bundle = tempDir('redaction-bundle-');
    const result = await runCli(['--target', url, '--profile', 'quick', '--report-dir', reports, '--certify', bundle], { API_KEY: KEY });
    expect([0, 1]).toContain(result.code);
    const outputs = [
      { path: 'stdout', text: result.stdout },
      { path: 'stderr', text: result.stderr },
      ...allFiles(reports),
      ...allFiles(bundle),
    ];
    expect(outputs.map((o) => o.path.replace(/.*\//, '')).sort()).toEqual(
      expect.arrayContaining(['conformance.html', 'conformance.json', 'junit.xml', 'exchanges.har', 'manifest.json', 'stdout']),
    );
    for (const { path, text } of outputs) {
      for (const form of FORMS) expect(text.includes(form), `${form} found in ${path}`).toBe(false);
    }
    // Failures carry their evidence, only redacted: Authorization reads "Bearer ***", curl uses $API_KEY.
    if (result.code === 1) {
      const json = outputs.find((o) => o.path.endsWith('conformance.json'))?.text ?? '';
      expect(json).toContain('Bearer ***');
      expect(json).toContain('$API_KEY');
      expect(result.stdout).toContain('Reproduce with: curl');
    }
  });
});
