import { describe, expect, it } from 'vitest';
import { loadCatalog, parseCatalog } from '../../src/catalog/catalog.ts';

const minimal = (requirements: string, open = '[]') => `
version: 1
areas:
  auth: Auth
requirements:
${requirements}
open: ${open}
`;

describe('spec/requirements.yaml', () => {
  const catalog = loadCatalog();

  it('loads, with unique ids in every area the issue names', () => {
    const areas = new Set(catalog.requirements.map((r) => r.area));
    for (const area of ['schemas', 'status-codes', 'errors', 'auth', 'limits', 'rate-limit', 'deprecation', 'versioning', 'int64']) {
      expect(areas, area).toContain(area);
    }
    expect(new Set(catalog.requirements.map((r) => r.id)).size).toBe(catalog.requirements.length);
  });

  it('records GET /store/orders and the other unshown parts as not covered, with reasons', () => {
    const notCovered = catalog.requirements.filter((r) => r.coverage === 'not-covered');
    expect(notCovered.map((r) => r.text).join(' ')).toContain('/store/orders');
    for (const r of notCovered) expect(r.reason, r.id).toBeTruthy();
  });

  it('lists the open questions of docs/architecture.md with the behaviours accepted', () => {
    const questions = catalog.open.map((q) => q.question).join('\n');
    for (const topic of ['out-of-range limit', 'unknown status', 'Retry-After', 'Content-Type', 'petId', '429 body']) {
      expect(questions).toContain(topic);
    }
  });
});

describe('catalog validation', () => {
  const entry = (id: string, level: string, source: string) =>
    `  - { id: ${id}, area: auth, level: ${level}, source: "${source}", text: "Something holds." }`;

  it('rejects duplicate ids', () => {
    expect(() => parseCatalog(minimal([entry('AUTH-001', 'MUST', 's'), entry('AUTH-001', 'SHOULD', 's')].join('\n')))).toThrow(/duplicate id AUTH-001/);
  });

  it('rejects unknown levels', () => {
    expect(() => parseCatalog(minimal(entry('AUTH-001', 'MUSTNT', 's')))).toThrow(/level/);
  });

  it('rejects a MUST without a source', () => {
    expect(() => parseCatalog(minimal(entry('AUTH-001', 'MUST', ' ')))).toThrow(/needs a source/);
    expect(() => parseCatalog(minimal(`  - { id: AUTH-001, area: auth, level: MUST, text: "x" }`))).toThrow(/source/);
  });

  it('rejects unknown areas, malformed ids, and not-covered entries without a reason', () => {
    expect(() => parseCatalog(minimal(`  - { id: AUTH-001, area: nope, level: MUST, source: s, text: x }`))).toThrow(/unknown area/);
    expect(() => parseCatalog(minimal(`  - { id: auth-1, area: auth, level: MUST, source: s, text: x }`))).toThrow(/pattern/);
    expect(() => parseCatalog(minimal(`  - { id: AUTH-001, area: auth, level: MAY, source: s, text: x, coverage: not-covered }`))).toThrow(/reason/);
  });

  it('rejects open questions that name unknown requirements', () => {
    const open = '[{ question: "q", accepts: [a], appliesTo: [AUTH-999] }]';
    expect(() => parseCatalog(minimal(entry('AUTH-001', 'MUST', 's'), open))).toThrow(/unknown AUTH-999/);
  });
});
