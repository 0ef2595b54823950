import type { Matrix, MatrixColumn } from './matrix-types.ts';
import { TRUST_WORDS, columnLabel, shortFingerprint } from './labels.ts';

/**
 * Text from a bundle, inert in Markdown: no table cell break, no link, image, emphasis or HTML. A name
 * like `[x](javascript:…)` or `<img onerror>` shows as written.
 */
export function escapeMarkdown(text: string): string {
  return visibleControls(text.replace(/[\r\n\t]+/g, ' '))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_{}[\]()#+!|~])/g, '\\$1');
}

/** Control, format (bidi overrides, marks, isolates) and separator characters, shown as \\uXXXX: they cannot reorder a line. */
export function visibleControls(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, unicodeEscape);
}

/** A character as JSON's \\uXXXX escapes, one per UTF-16 unit (a pair beyond the BMP). */
export function unicodeEscape(c: string): string {
  return Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')}`).join('');
}

/** Columns that get a badge: the newest version of each implementation, unless NOT VERIFIED. */
export function badgedColumns(matrix: Matrix): Array<MatrixColumn & { badge: string }> {
  return matrix.implementations.filter((c): c is MatrixColumn & { badge: string } => c.counted && c.badge !== undefined);
}

/** matrix.md: the ranking with badges, the most failed requirements and the history, for a README. */
export function renderMatrixMarkdown(matrix: Matrix): string {
  const columns = new Map(matrix.implementations.map((c) => [c.key, c]));
  const ranked = matrix.ranking.map((k) => columns.get(k)).filter((c): c is MatrixColumn => c !== undefined);
  const label = (c: MatrixColumn) => escapeMarkdown(columnLabel(c));
  // The subject the signature names, so two columns of one name are told apart by what was tested.
  const subject = (c: MatrixColumn) => (c.implementationDigest ? ` (${escapeMarkdown(c.implementationDigest.slice(0, 19))}…)` : '');
  const lines = [
    `## Animal Store ${escapeMarkdown(matrix.interface.version)} conformance`,
    '',
    `${ranked.length} implementation${ranked.length === 1 ? '' : 's'}, best first (generated ${matrix.generatedAt.slice(0, 10)}; the full matrix is in [matrix.html](matrix.html)).`,
    '',
    '| # | Implementation | Verdict | MUSTs tested | Failing | Warnings | Trust | Badge |',
    '|---|---|---|---|---|---|---|---|',
  ];
  ranked.forEach((c, i) => {
    const trust = `${TRUST_WORDS[c.trust]}${c.signer ? ` (key ${shortFingerprint(c.signer.fingerprint)})` : ''}${c.shardsTrusted ? ', shards taken on trust' : ''}`;
    // The alt text says what the badge says: an unsigned input's badge is never read as a certificate.
    const badge = c.badge ? `![${escapeMarkdown(c.verdictLabel)}${c.trust === 'verified' ? '' : ' (unsigned)'}](badges/${c.badge})` : '';
    lines.push(
      `| ${i + 1} | ${label(c)}${subject(c)} | **${escapeMarkdown(c.verdictLabel)}** | ${c.mustTested} of ${c.mustInScope} | ${c.counts.fail} | ${c.counts.warn} | ${trust} | ${badge} |`,
    );
  });
  const notCounted = matrix.implementations.filter((c) => c.trust === 'not-verified');
  if (notCounted.length > 0) lines.push('', `Not verified, not ranked: ${notCounted.map(label).join(', ')}.`);

  const failing = matrix.mostFailed.map((id) => matrix.requirements.find((r) => r.id === id)).filter((r) => r !== undefined);
  lines.push('', '### Most often failed', '');
  if (failing.length === 0) lines.push('No counted implementation fails any requirement.');
  else {
    lines.push('| Requirement | Level | Fails in | Where |', '|---|---|---|---|');
    for (const row of failing.slice(0, 15)) {
      const where = row.cells
        .filter((cell) => columns.get(cell.column)?.counted && ['fail', 'warn', 'deviation'].includes(cell.status))
        .map((cell) => `${label(columns.get(cell.column) as MatrixColumn)} (${cell.status})`);
      lines.push(`| ${escapeMarkdown(row.id)} | ${row.level} | ${row.counts.failing} of ${row.counts.of} | ${where.join(', ')} |`);
    }
    if (failing.length > 15) lines.push('', `…and ${failing.length - 15} more in matrix.html.`);
  }

  const history = matrix.implementations.filter((c) => c.history);
  if (history.length > 0) {
    lines.push('', '### History', '');
    for (const c of history) {
      const h = c.history;
      if (!h) continue;
      const before = columns.get(h.since);
      const parts = (
        [
          ['newlyFailing', 'newly failing'],
          ['fixed', 'fixed'],
          ['newlyUntested', 'newly untested'],
          ['newlyTested', 'newly tested'],
          ['reasonChanged', 'failing for another reason'],
          ['otherChanges', 'other changes'],
        ] as const
      )
        .filter(([key]) => h[key].length > 0)
        .map(([key, words]) => `${words}: ${h[key].map(escapeMarkdown).join(', ')}`);
      const from = before ? escapeMarkdown(before.version ?? before.date.slice(0, 10)) : '?';
      lines.push(
        `- **${escapeMarkdown(c.name)}** ${from} → ${escapeMarkdown(c.version ?? c.date.slice(0, 10))}: ${h.regressed ? '**regressed**' : 'no regression'}${parts.length > 0 ? `; ${parts.join('; ')}` : '; nothing changed'}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
