import { CHANGE_CLASSES } from '../../report/compare-reports.ts';
import { formatInstant } from '../../report/html/format.ts';
import { type SafeHtml, html, when } from '../../report/html/safe-html.ts';
import type { Matrix, MatrixColumn, MatrixRow } from '../matrix-types.ts';
import { TRUST_MEANING, TRUST_WORDS, columnLabel, failsIn, shortFingerprint } from '../labels.ts';
import { rowAnchor } from './matrix-table.ts';

const byKey = (matrix: Matrix) => new Map(matrix.implementations.map((c) => [c.key, c]));

/** "7 failing MUSTs, 2 warnings": what a column's verdict rests on. */
export function failureSummary(c: MatrixColumn): string {
  const parts = [`${c.mustTested} of ${c.mustInScope} MUSTs tested`];
  parts.push(c.counts.fail === 0 ? 'nothing failing' : `${c.counts.fail} failing`);
  if (c.counts.warn > 0) parts.push(`${c.counts.warn} warning${c.counts.warn === 1 ? '' : 's'}`);
  if (c.counts.deviation > 0) parts.push(`${c.counts.deviation} declared deviation${c.counts.deviation === 1 ? '' : 's'}`);
  return parts.join(', ');
}

/** Two columns the ranking cannot tell apart: a reader should know the pick is one of several. */
function sameStanding(a: MatrixColumn, b: MatrixColumn): boolean {
  return (
    a.verdict === b.verdict &&
    a.trust === b.trust &&
    a.mustFailing === b.mustFailing &&
    (['fail', 'warn', 'deviation', 'untested'] as const).every((s) => a.counts[s] === b.counts[s]) &&
    a.mustTested === b.mustTested
  );
}

/** The two answers a reader comes for, first: which implementation to pick, which requirement fails most. */
export function answers(matrix: Matrix): SafeHtml {
  const columns = byKey(matrix);
  const best = columns.get(matrix.ranking[0] ?? '');
  const worstId = matrix.mostFailed[0];
  const worstIndex = matrix.requirements.findIndex((r) => r.id === worstId);
  const worst: MatrixRow | undefined = matrix.requirements[worstIndex];
  const conformant = best?.verdict === 'conformant';
  const tied = best
    ? matrix.ranking
        .slice(1)
        .map((k) => columns.get(k))
        .filter((c): c is MatrixColumn => c !== undefined && sameStanding(c, best))
    : [];
  return html`<section class="answer" aria-label="Summary">
<div class="${conformant ? 'pick' : 'pick-none'}">
  <p class="label">${conformant ? 'Pick' : 'No implementation is conformant; the closest'}</p>
  ${
    best
      ? html`<p class="big">${columnLabel(best)} <span class="verdict-text-${best.verdict}">${best.verdictLabel}</span></p>
  <p>${failureSummary(best)} · <span class="trust trust-${best.trust}">${TRUST_WORDS[best.trust]}</span>${when(best.signer !== undefined, () => html` by key <span class="fp">${shortFingerprint(best.signer?.fingerprint ?? '')}</span>`)}</p>
  ${when(tied.length > 0, () => html`<p class="small">Equally good: ${tied.map(columnLabel).join(', ')}.</p>`)}`
      : html`<p class="big">none</p><p>No input could be counted: every one is marked NOT VERIFIED.</p>`
  }
</div>
<div class="${worst ? 'worst' : 'pick'}">
  <p class="label">Most often failed</p>
  ${
    worst
      ? html`<p class="big"><a href="#${rowAnchor(worstIndex)}">${worst.id}</a> <span class="level level-${worst.level}">${worst.level}</span></p>
  <p>${failsIn(worst.counts.failing, worst.counts.of)}: ${worst.text}</p>`
      : html`<p class="big">none</p><p>Every counted implementation passes or leaves untested every requirement.</p>`
  }
</div>
</section>`;
}

/** Every counted implementation, best first; then the ones not counted, and why. */
export function rankingSection(matrix: Matrix): SafeHtml {
  const columns = byKey(matrix);
  const ranked = matrix.ranking.map((k) => columns.get(k)).filter((c): c is MatrixColumn => c !== undefined);
  const others = matrix.implementations.filter((c) => !c.counted);
  return html`<section aria-labelledby="ranking-title">
<h2 id="ranking-title">Implementations, best first</h2>
<div class="scroll"><table class="ranking">
<thead><tr><th scope="col">#</th><th scope="col">Implementation</th><th scope="col">Verdict</th><th scope="col">Failing MUST</th><th scope="col">Warnings</th><th scope="col">Deviations</th><th scope="col">MUSTs tested</th><th scope="col">Trust</th></tr></thead>
<tbody>${ranked.map(
    (c, i) =>
      html`<tr><td>${i + 1}</td><td class="impl-name">${columnLabel(c)}</td><td class="verdict-text-${c.verdict}">${c.verdictLabel}</td><td>${c.mustFailing}</td><td>${c.counts.warn}</td><td>${c.counts.deviation}</td><td>${c.mustTested} of ${c.mustInScope}</td><td><span class="trust trust-${c.trust}">${TRUST_WORDS[c.trust]}</span></td></tr>`,
  )}</tbody>
</table></div>
<p class="legend">Ranked by verdict, then failing MUSTs, then trust (signed before unsigned), then warnings and deviations. Only the newest version of each implementation is ranked.</p>
${when(
  others.length > 0,
  () =>
    html`<p class="legend">Not ranked: ${others.map(
      (c, i) => html`${i > 0 ? '; ' : ''}${columnLabel(c)} (${c.trust === 'not-verified' ? 'NOT VERIFIED' : 'an older version'})`,
    )}.</p>`,
)}
</section>`;
}

/** What changed between versions of one implementation, as `compare` says it. */
export function historySection(matrix: Matrix): SafeHtml | undefined {
  const columns = byKey(matrix);
  const changed = matrix.implementations.filter((c) => c.history !== undefined);
  if (changed.length === 0) return undefined;
  const list = (label: string, ids: readonly string[]) => when(ids.length > 0, () => html` <strong>${label}:</strong> ${ids.join(', ')}.`);
  return html`<section aria-labelledby="history-title">
<h2 id="history-title">History: what changed between versions</h2>
<ul class="history-list">${changed.map((c) => {
    const h = c.history;
    if (!h) return undefined;
    const before = columns.get(h.since);
    const nothing = CHANGE_CLASSES.every((key) => h[key].length === 0);
    return html`<li><strong>${c.name}</strong> ${before?.version ?? before?.date.slice(0, 10) ?? '?'} → ${c.version ?? c.date.slice(0, 10)}
(${before?.verdictLabel ?? '?'} → ${c.verdictLabel}): ${h.regressed ? html`<strong class="verdict-text-not-conformant">regressed</strong>.` : 'no regression.'}
${list('Newly failing', h.newlyFailing)}${list('Fixed', h.fixed)}${list('Newly untested', h.newlyUntested)}${list('Newly tested', h.newlyTested)}${list('Failing for another reason', h.reasonChanged)}${list('Other changes', h.otherChanges)}${nothing ? ' Nothing changed.' : ''}</li>`;
  })}</ul>
</section>`;
}

/** Everything known about each column: where it came from, who signed it, what failed to verify. */
export function detailsSection(matrix: Matrix): SafeHtml {
  return html`<section aria-labelledby="details-title">
<h2 id="details-title">Implementations in detail</h2>
<div class="scroll"><table class="details-table">
<thead><tr><th scope="col">Implementation</th><th scope="col">Verdict</th><th scope="col">Run</th><th scope="col">Suite identity</th><th scope="col">Signed by (sha256 of the key)</th><th scope="col">Trust</th></tr></thead>
<tbody>${matrix.implementations.map(
    (c) => html`<tr id="col-${c.key}"><th scope="row">${columnLabel(c)}${when(!c.declared, () => html` <span class="muted small">(no name declared)</span>`)}
${when(c.implementationDigest !== undefined, () => html`<br><span class="fp">${c.implementationDigest}</span>`)}<br><span class="muted small">${c.source}</span>
${when(c.reportLink !== undefined, () => html`<br><a href="${c.reportLink}">its report</a>`)}</th>
<td class="verdict-text-${c.verdict}">${c.verdictLabel}<br><span class="muted small">${c.mustTested} of ${c.mustInScope} MUSTs tested</span></td>
<td>${c.embedded ? 'embedded reference' : c.target}<br>plan ${c.plan ?? 'not given'} · profile ${c.profile}<br>${formatInstant(c.date)}<br>interface ${c.interfaceVersion}</td>
<td><span class="fp">${c.suiteIdentity}</span></td>
<td>${c.signer ? html`<span class="fp">${c.signer.fingerprint}</span>` : html`<span class="muted">not signed, or not checked</span>`}</td>
<td><span class="trust trust-${c.trust}">${TRUST_WORDS[c.trust]}</span><br><span class="small">${TRUST_MEANING[c.trust]}</span>
${when(c.problems.length > 0, () => html`<ul class="problems small">${c.problems.map((p) => html`<li>${p}</li>`)}</ul>`)}</td></tr>`,
  )}</tbody>
</table></div>
<p class="legend">An implementation's name and version are what its signer declared: the signature binds them, the suite does not check them.</p>
</section>`;
}
