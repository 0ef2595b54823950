import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ATTESTATION_FILE, writeCertificationBundle } from '../../src/certificate/index.ts';
import { runCli, runMain } from '../support/cli.ts';
import { sampleReport } from '../support/sample-report.ts';

describe('--certify and keygen refuse: no old signature beside new files, no key overwritten, no option taken for a path', () => {
  const dir = mkdtempSync(join(tmpdir(), 'certify-refusals-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--certify into a non-empty directory is refused (exit 2) before any request is sent', async () => {
    const bundle = join(dir, 'old-bundle');
    mkdirSync(bundle);
    writeFileSync(join(bundle, ATTESTATION_FILE), '{"old":"signature"}\n');
    const run = await runMain(['--certify', bundle, '--report-dir', join(dir, 'reports')]);
    expect(run.code, run.stdout).toBe(2);
    expect(run.stderr).toMatch(/--certify .*old-bundle is not empty \(attestation\.intoto\.jsonl\): give an empty directory, or --force to empty it first/);
    expect(readdirSync(bundle)).toEqual([ATTESTATION_FILE]);
  });

  it('--force empties the directory before the run: a run that then fails leaves no old bundle behind', async () => {
    const bundle = join(dir, 'forced-cli');
    mkdirSync(bundle);
    writeFileSync(join(bundle, ATTESTATION_FILE), '{"old":"signature"}\n');
    const unreachable = ['--target', 'http://127.0.0.1:9/v1', '--api-key', 'k', '--plan', 'pro', '--profile', 'thorough'];
    const run = await runCli([...unreachable, '--certify', bundle, '--force', '--report-dir', join(dir, 'forced-reports')]);
    expect(run.code, run.stdout).toBe(2);
    expect(readdirSync(bundle)).toEqual([]);
  });

  it('--force empties the directory first: the old signature does not survive beside the new files', () => {
    const bundle = join(dir, 'forced');
    mkdirSync(join(bundle, 'nested'), { recursive: true });
    writeFileSync(join(bundle, ATTESTATION_FILE), '{"old":"signature"}\n');
    const { report, exchanges } = sampleReport({ exchangesPerTest: 1 });
    expect(() => writeCertificationBundle(report, exchanges, bundle)).toThrow(/is not empty/);
    writeCertificationBundle(report, exchanges, bundle, { force: true });
    expect(readdirSync(bundle).sort()).toEqual(['badge.svg', 'conformance.html', 'conformance.json', 'exchanges.har', 'junit.xml', 'manifest.json']);
  });

  it('keygen refuses to overwrite a key', async () => {
    const keys = join(dir, 'keys');
    expect((await runMain(['keygen', keys])).code).toBe(0);
    const before = readFileSync(join(keys, 'sign-key.pem'), 'utf8');
    const again = await runMain(['keygen', keys]);
    expect(again.code).toBe(2);
    expect(again.stdout).toMatch(/already exist: keygen never replaces a key/);
    expect(readFileSync(join(keys, 'sign-key.pem'), 'utf8')).toBe(before);
  });

  it('keygen --help and verify --help print their usage and create nothing', async () => {
    const keygen = await runCli(['keygen', '--help'], {}, dir);
    expect(keygen.code).toBe(0);
    expect(keygen.stdout).toMatch(/^Usage: animal-store-conformance keygen <dir>/);
    const verify = await runCli(['verify', '--help'], {}, dir);
    expect(verify.code).toBe(0);
    expect(verify.stdout).toMatch(/^Usage: animal-store-conformance verify <bundle-dir>/);
    expect(verify.stdout).toContain('--any-verdict');
    const option = await runCli(['keygen', '--out'], {}, dir);
    expect(option.code).toBe(2);
    expect(existsSync(join(dir, '--help'))).toBe(false);
    expect(existsSync(join(dir, '--out'))).toBe(false);
  });

  it('--certify of a remote target needs --plan; a malformed plan is refused', async () => {
    const remote = ['--target', 'http://127.0.0.1:9/v1', '--api-key', 'k', '--profile', 'thorough', '--report-dir', join(dir, 'remote-reports')];
    const noPlan = await runMain([...remote, '--certify', join(dir, 'remote-bundle')]);
    expect(noPlan.code).toBe(2);
    expect(noPlan.stderr).toMatch(/--certify of a remote target needs --plan \(free, pro, business, enterprise or enterprise:<perMinute>:<perDay>\)/);
    const bad = await runMain([...remote, '--plan', 'enterprise:0:10']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--plan must be one of/);
  });
});
