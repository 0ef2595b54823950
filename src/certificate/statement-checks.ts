import type { ConformanceReport } from '../report/report-types.ts';
import { PREDICATE_TYPE, STATEMENT_TYPE, type Statement, statementFor } from './attestation.ts';
import { type BundleManifest, implementationClaim } from './bundle-writer.ts';
import type { BundleCheck } from './report-checks.ts';
import { canonicalJson } from '../text/canonical-json.ts';
import { isRecord, parseStrictJson } from './strict-json.ts';

/**
 * The signed statement must be exactly the one this bundle's files give: its type and predicate type,
 * the implementation as the manifest declares it, every file and no other with its sha256, the result,
 * the passed, warned and failed ids, and the configuration (suite identity, interface digest). A
 * statement the key signed about anything else (another file, another run) is refused.
 */
export function statementChecks(
  payload: Buffer,
  report: ConformanceReport,
  manifest: BundleManifest,
  content: ReadonlyArray<{ name: string; sha256: string }>,
): BundleCheck[] {
  const checks: BundleCheck[] = [];
  const add = (ok: boolean, name: string, detail: string) => checks.push({ ok, name, detail });
  let statement: Statement;
  try {
    const value = parseStrictJson(payload.toString('utf8'));
    if (!isRecord(value) || !Array.isArray(value.subject) || !isRecord(value.predicate)) throw new Error('not an in-toto statement');
    statement = value as unknown as Statement;
  } catch (error) {
    add(false, 'statement', `the signed payload cannot be read: ${(error as Error).message}`);
    return checks;
  }
  const expected = statementFor(report, implementationClaim(manifest), content);
  add(
    statement._type === STATEMENT_TYPE && statement.predicateType === PREDICATE_TYPE,
    'statement type',
    `${String(statement._type)} with predicate ${String(statement.predicateType)}${statement.predicateType === PREDICATE_TYPE ? '' : ` (expected ${PREDICATE_TYPE})`}`,
  );
  const [implementation, ...subjects] = statement.subject;
  const [expectedImplementation, ...expectedSubjects] = expected.subject;
  add(
    canonicalJson(implementation) === canonicalJson(expectedImplementation),
    'attested implementation',
    canonicalJson(implementation) === canonicalJson(expectedImplementation)
      ? `the statement's subject is ${expectedImplementation?.name ?? '?'} (sha256 ${expectedImplementation?.digest.sha256.slice(0, 16) ?? '?'}…)`
      : `the statement is about ${isRecord(implementation) ? String(implementation.name) : 'nothing'}, the bundle declares ${expectedImplementation?.name ?? '?'}`,
  );
  const attested = new Map(subjects.map((s) => [isRecord(s) ? String(s.name) : '', isRecord(s) && isRecord(s.digest) ? String(s.digest.sha256) : '']));
  const problems = [
    ...expectedSubjects.filter((s) => !attested.has(s.name)).map((s) => `${s.name} is not attested`),
    ...[...attested.keys()].filter((name) => !expectedSubjects.some((s) => s.name === name)).map((name) => `${name} is attested but not in the bundle`),
    ...expectedSubjects.filter((s) => attested.has(s.name) && attested.get(s.name) !== s.digest.sha256).map((s) => `${s.name} changed since signing`),
  ];
  if (attested.size !== subjects.length) problems.push('a subject is named twice');
  // A file subject is its name and sha256, nothing else: any other field is a claim no check reads.
  for (const subject of subjects) {
    const extra = isRecord(subject)
      ? [
          ...Object.keys(subject).filter((k) => k !== 'name' && k !== 'digest'),
          ...(isRecord(subject.digest) ? Object.keys(subject.digest).filter((k) => k !== 'sha256') : ['digest']),
        ]
      : ['(not an object)'];
    if (extra.length > 0) problems.push(`${isRecord(subject) ? String(subject.name) : '?'} carries fields this suite does not sign: ${extra.join(', ')}`);
  }
  add(
    problems.length === 0,
    'attested files',
    problems.length === 0 ? `the ${expectedSubjects.length} files of the bundle are exactly those signed` : problems.join('; '),
  );
  const predicate = statement.predicate;
  const sameResult =
    canonicalJson([predicate.result, predicate.passedTests, predicate.warnedTests, predicate.failedTests]) ===
    canonicalJson([expected.predicate.result, expected.predicate.passedTests, expected.predicate.warnedTests, expected.predicate.failedTests]);
  add(
    sameResult,
    'attested result',
    `the statement says ${String(predicate.result)}${sameResult ? ' with the same passed, warned and failed requirements as the report' : `; the report gives ${expected.predicate.result}, or other requirement ids`}`,
  );
  const sameConfiguration = canonicalJson(predicate.configuration) === canonicalJson(expected.predicate.configuration);
  add(
    sameConfiguration,
    'attested configuration',
    sameConfiguration
      ? "the suite identity and the interface digest signed are the report's"
      : "the signed suite identity or interface digest is not the report's",
  );
  // The whole statement, byte for byte in meaning: whatever the checks above do not name is still compared.
  const rest = canonicalJson(statement) === canonicalJson(expected);
  add(
    rest,
    'statement fields',
    rest ? 'nothing else is signed' : 'the statement is not exactly the one the bundle gives: it carries fields this suite does not write',
  );
  return checks;
}

/**
 * What was tested is what is named (the rule --certify applies, applied again): a remote target is named
 * as declared; the embedded reference by the suite, with the suite identity as its digest, so a name
 * declared for it is a label no pin accepts, and an artefact digest (--implementation-digest) is refused.
 */
export function namingCheck(manifest: BundleManifest): BundleCheck {
  const claim = implementationClaim(manifest);
  if (!manifest.target?.embedded)
    return {
      ok: true,
      name: 'implementation named',
      detail: manifest.implementation ? `as declared: ${manifest.implementation}` : `not declared: named by its target, ${claim.name}`,
    };
  if (manifest.implementationDigest !== undefined)
    return {
      ok: false,
      name: 'implementation named',
      detail: `the bundle gives an artefact digest (sha256:${String(manifest.implementationDigest).slice(0, 16)}…), but the run tested the embedded reference, not an artefact`,
    };
  return {
    ok: true,
    name: 'implementation named',
    detail: manifest.implementation
      ? `the embedded reference, named as itself (${claim.name}); "${manifest.implementation}" was declared for it, a label no --implementation pin accepts`
      : `the embedded reference, named as itself (${claim.name})`,
  };
}
