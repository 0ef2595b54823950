/**
 * The report's stylesheet: system fonts only (the file must read offline), restrained colours that keep
 * a 4.5:1 contrast, and a print layout that shows everything and hides the controls.
 */
export const STYLES = `
:root {
  --ink: #1f2328; --muted: #59636e; --line: #d8dee4; --soft: #f6f8fa; --paper: #ffffff;
  --pass: #1a6b32; --pass-bg: #e3f5e8; --fail: #b42318; --fail-bg: #fdebea; --warn: #8a5300; --warn-bg: #fff3d6;
  --dev: #6135a8; --dev-bg: #f1eafc; --skip: #4f5a66; --skip-bg: #eef1f4; --link: #0b5cad;
  --mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--paper); color: var(--ink);
  font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif; }
main { max-width: 1120px; margin: 0 auto; padding: 32px 28px 56px; }
h2 { font-size: 1.25rem; margin: 32px 0 12px; padding-bottom: 6px; border-bottom: 1px solid var(--line); letter-spacing: -0.01em; }
h3 { font-size: 1rem; margin: 20px 0 8px; }
a { color: var(--link); }
code, pre { font-family: var(--mono); font-size: 12.5px; }
.muted { color: var(--muted); font-weight: normal; }
.small { font-size: 12.5px; }
.label { margin: 0 0 4px; font-size: 11.5px; font-weight: 600; letter-spacing: .06em; text-transform: uppercase; color: var(--muted); }

.banner { border: 1px solid var(--line); border-left: 10px solid var(--skip); border-radius: 6px; padding: 22px 28px 18px; background: var(--soft); }
.banner-conformant { border-left-color: var(--pass); background: #f4fbf6; }
.banner-not-conformant { border-left-color: var(--fail); background: #fff7f6; }
.banner-incomplete { border-left-color: #b07100; background: #fffaf0; }
.banner-partial { border-left-color: #2f6fb0; background: #f5f9fd; }
.banner-partial .verdict-word { color: #2f6fb0; }
.scope-line { margin: 0 0 12px; font-weight: 600; }
.untested-list li { margin: 2px 0; }
.kicker { margin: 0; color: var(--muted); font-size: 13px; letter-spacing: .08em; text-transform: uppercase; }
.verdict-word { margin: 4px 0 6px; font-size: clamp(26px, 7.4vw, 44px); line-height: 1.1; letter-spacing: .02em; font-weight: 750; overflow-wrap: anywhere; }
.banner-conformant .verdict-word { color: var(--pass); }
.banner-not-conformant .verdict-word { color: var(--fail); }
.banner-incomplete .verdict-word { color: var(--warn); }
.why { margin: 0 0 12px; font-size: 17px; max-width: 70ch; }
.cause-line { margin: 0 0 10px; }
.failing-ids { margin: 0 0 14px; display: flex; flex-wrap: wrap; gap: 6px; }
.id-chip { font: 600 12.5px var(--mono); text-decoration: none; padding: 2px 8px; border-radius: 4px; background: var(--fail-bg); color: var(--fail); border: 1px solid #f3c3bf; }
.id-chip-deviation { background: var(--dev-bg); color: var(--dev); border-color: #d9c8f5; }
.facts { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 10px 24px; margin: 0; padding-top: 12px; border-top: 1px solid rgba(0,0,0,.08); }
.facts dt, .meta-grid dt { font-size: 11.5px; font-weight: 600; letter-spacing: .06em; text-transform: uppercase; color: var(--muted); }
.facts dd, .meta-grid dd { margin: 0; overflow-wrap: anywhere; }

table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { padding: 6px 10px; border-bottom: 1px solid var(--line); text-align: left; }
thead th { font-size: 12px; font-weight: 600; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
.counts td, .counts thead th:not(:first-child), .matrix td, .matrix thead th:not(:first-child) { text-align: right; }
.counts td.zero, .matrix .cov-none { color: #a0a8b0; }
.counts .count-pass { color: var(--pass); font-weight: 600; }
.counts .count-fail { color: var(--fail); font-weight: 700; }
.counts .count-warn { color: var(--warn); font-weight: 600; }
.counts .count-deviation { color: var(--dev); font-weight: 600; }
td.total { font-weight: 600; }
.legend { color: var(--muted); font-size: 13px; margin: 8px 0 0; }

.notes { border: 1px solid #ecd9a8; background: #fffbef; border-radius: 6px; padding: 4px 20px 14px; margin-top: 28px; }
.notes h2 { border: 0; margin-top: 14px; }
.note-list, .harness-list { margin: 0; padding-left: 20px; }
.deviations td:first-child { font-family: var(--mono); white-space: nowrap; }
.dev-requirement-passes td:last-child, .dev-unknown-requirement td:last-child, .dev-expired td:last-child, .dev-different-failure td:last-child { color: var(--fail); font-weight: 600; }

.causes { margin-top: 28px; }
.cause-list { margin: 0; padding-left: 24px; }
.cause { margin: 0 0 12px; padding: 8px 12px; border: 1px solid var(--line); border-left: 4px solid var(--fail); border-radius: 6px; background: var(--paper); }
.cause-warn { border-left-color: #d08a00; }
.cause-summary { margin: 0; font-weight: 650; overflow-wrap: anywhere; }
.cause-count { color: var(--muted); font-size: 13px; }
.cause-ids { margin: 4px 0 0; display: flex; flex-wrap: wrap; align-items: baseline; gap: 6px; }
.id-chip-warn { background: var(--warn-bg); color: var(--warn); border-color: #efd9a3; }
.id-chip-untested { background: var(--skip-bg); color: var(--skip); border-color: var(--line); }
details.cause-untested { margin-top: 6px; font-size: 13px; }
details.cause-untested > summary { cursor: pointer; color: var(--muted); }
details.cause-untested .cause-ids { margin-top: 6px; }

.area-bars { list-style: none; margin: 0; padding: 0; }
.area-bar { display: grid; grid-template-columns: minmax(0, 20rem) minmax(0, 1fr) minmax(0, 18rem); gap: 2px 12px; align-items: center; padding: 3px 0; border-bottom: 1px solid var(--line); }
.area-name { font: 600 13.5px var(--mono); text-decoration: none; color: var(--ink); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.bar { display: flex; height: 14px; border-radius: 3px; overflow: hidden; background: var(--soft); border: 1px solid var(--line); }
.seg { display: block; height: 100%; }
.seg-passed { background: #2e8b4e; } .seg-failed { background: var(--fail); } .seg-warned { background: #d08a00; }
.seg-untested { background: repeating-linear-gradient(135deg, #c5ccd4 0 4px, #e6eaee 4px 8px); }
.area-counts { font-size: 13px; color: var(--muted); font-variant-numeric: tabular-nums; }
.legend .swatch { height: 10px; }

.controls { display: none; flex-wrap: wrap; align-items: center; gap: 12px; position: sticky; top: 0; z-index: 2;
  background: rgba(255,255,255,.96); padding: 10px 0; border-bottom: 1px solid var(--line); }
.js .controls { display: flex; }
.filters { display: inline-flex; border: 1px solid var(--line); border-radius: 6px; overflow: hidden; }
.filter { font: inherit; font-size: 14px; border: 0; border-right: 1px solid var(--line); background: var(--paper); color: var(--ink); padding: 6px 14px; cursor: pointer; }
.filter:last-child { border-right: 0; }
.filter[aria-pressed="true"] { background: var(--ink); color: #fff; }
.filter .badge { display: inline-block; min-width: 1.6em; margin-left: 4px; padding: 0 5px; border-radius: 9px; background: rgba(127,127,127,.18); font-size: 12px; text-align: center; }
.search { font: inherit; font-size: 14px; flex: 1 1 240px; max-width: 360px; padding: 6px 10px; border: 1px solid #aab4be; border-radius: 6px; }
button:focus-visible, .search:focus-visible, a:focus-visible, summary:focus-visible { outline: 3px solid #6ea8ff; outline-offset: 1px; }
.shown { color: var(--muted); font-size: 13px; }
.empty-result { color: var(--muted); font-style: italic; }

.area h3 { margin-top: 28px; font-family: var(--mono); font-size: 14px; }
.area-title { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-weight: normal; color: var(--muted); margin-left: 6px; }
.req { border: 1px solid var(--line); border-radius: 6px; padding: 10px 14px; margin: 8px 0; background: var(--paper); }
.req-fail { border-left: 4px solid var(--fail); }
.req-deviation { border-left: 4px solid var(--dev); }
.req-warn { border-left: 4px solid #d08a00; }
.req-head { display: grid; grid-template-columns: 108px 84px 60px 1fr; align-items: baseline; gap: 12px; }
.req-id { font: 600 13.5px var(--mono); }
.req-text { margin: 0; }
.req-source, .req-reason { margin: 3px 0 0; color: var(--muted); font-size: 13px; }
.req-reason { color: var(--ink); }
.req-notes { margin: 3px 0 0; padding-left: 18px; font-size: 13px; color: var(--warn); }
.pill { display: inline-block; text-align: center; font-size: 11.5px; font-weight: 700; letter-spacing: .05em; text-transform: uppercase; padding: 2px 0; border-radius: 4px; width: 108px; white-space: nowrap; }
.pill-pass { background: var(--pass-bg); color: var(--pass); }
.pill-fail { background: var(--fail-bg); color: var(--fail); }
.pill-warn { background: var(--warn-bg); color: var(--warn); }
.pill-deviation { background: var(--dev-bg); color: var(--dev); }
.pill-skipped { background: var(--skip-bg); color: var(--skip); }
.pill-partial { background: var(--skip-bg); color: #2f6fb0; }
.pill-not-covered { background: var(--paper); color: var(--skip); border: 1px dashed #9aa4ae; padding: 1px 0; }
.level { font-size: 12px; font-weight: 600; color: var(--muted); letter-spacing: .04em; }
.level-MUST { color: var(--ink); }

.failure { margin: 10px 0 4px; padding: 10px 14px; border-radius: 6px; background: #fffafa; border: 1px solid #f1d3d0; }
.req-warn .failure { background: #fffdf6; border-color: #efe0b8; }
.req-deviation .failure { background: #fcfaff; border-color: #e2d6f5; }
.failure-source { margin: 0 0 8px; font-size: 13px; color: var(--muted); }
.evidence-note { margin: 8px 0 4px; font-size: 13px; color: var(--muted); font-style: italic; }
.failure-message { margin: 0 0 8px; font-family: var(--mono); font-size: 13px; white-space: pre-wrap; overflow-wrap: anywhere; }
.expected-actual { display: grid; grid-template-columns: 1fr 1fr; gap: 10px; margin: 0 0 10px; }
.expected-actual div { background: var(--paper); border: 1px solid var(--line); border-radius: 4px; padding: 8px 10px; }
.expected-actual dt { font-size: 11.5px; font-weight: 700; letter-spacing: .06em; text-transform: uppercase; }
.expected dt { color: var(--pass); }
.actual dt { color: var(--fail); }
.expected-actual dd { margin: 2px 0 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.property { margin: 0 0 10px; font-size: 13.5px; }
.property p { margin: 0 0 4px; }
pre { margin: 0; padding: 8px 10px; background: var(--soft); border: 1px solid var(--line); border-radius: 4px;
  white-space: pre-wrap; overflow-wrap: anywhere; max-height: 240px; overflow: auto; }
.exchange { margin: 8px 0 0; min-width: 0; }
details.more-exchanges { margin: 10px 0 0; font-size: 13px; }
details.more-exchanges > summary, details.run-facts > summary { cursor: pointer; color: var(--muted); }
details.run-facts { margin: 10px 0; font-size: 13px; }
details.run-facts .meta-grid { margin-top: 8px; font-size: 15px; }
.exchange pre { max-height: 168px; }
.exchange-parts > div, .copy-row pre, .expected-actual div { min-width: 0; }
.exchange figcaption { font-size: 12.5px; color: var(--muted); margin-bottom: 4px; }
.exchange-parts { display: grid; grid-template-columns: 1fr 1fr; gap: 10px; }
.copyable { margin-top: 8px; }
.copy-row { display: flex; gap: 8px; align-items: stretch; }
.copy-row pre { flex: 1; background: #f3f5f8; }
.copy { font: inherit; font-size: 13px; padding: 4px 12px; border: 1px solid #aab4be; border-radius: 6px; background: var(--paper); cursor: pointer; min-width: 92px; }
.copy:hover { background: var(--soft); }
details.tests { margin-top: 8px; font-size: 13px; }
details.tests summary { cursor: pointer; color: var(--muted); }
details.tests ul { margin: 6px 0 0; padding-left: 18px; }
.state { font-size: 11px; font-weight: 700; text-transform: uppercase; letter-spacing: .04em; }
.state-passed { color: var(--pass); } .state-failed { color: var(--fail); } .state-skipped { color: var(--skip); }

.matrix th[scope="row"] { font-family: var(--mono); font-size: 13px; white-space: nowrap; }
.matrix .cov-unseen, .cov-unseen-key { color: var(--warn); font-weight: 700; }
.matrix .cov-undocumented { color: var(--fail); font-weight: 700; }
.chart { margin: 8px 0 0; }
.chart svg { max-width: min(640px, 100%); height: auto; display: block; }
.chart text { font: 11px system-ui, sans-serif; fill: var(--muted); }
.chart .grid { stroke: #e4e8ec; stroke-width: 1; }
.chart .axis { stroke: #8c959f; stroke-width: 1; }
.chart .zero { fill: var(--fail); }
.chart figcaption { font-size: 13px; color: var(--muted); margin-top: 4px; }
.key { white-space: nowrap; margin-right: 12px; }
.swatch { display: inline-block; width: 14px; height: 3px; vertical-align: middle; margin-right: 5px; }
.meta-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(250px, 1fr)); gap: 10px 24px; margin: 0 0 12px; }
footer { margin-top: 48px; padding-top: 12px; border-top: 1px solid var(--line); color: var(--muted); font-size: 12.5px; }

@media (max-width: 760px) {
  main { padding: 12px; }
  .banner { padding: 16px 14px 14px; border-left-width: 6px; }
  .why { font-size: 15.5px; }
  /* Wide tables scroll inside their box: the page itself never scrolls sideways. */
  table.counts, table.matrix, table.deviations, .req table { display: block; overflow-x: auto; }
  th, td { padding: 5px 6px; }
  /* Sticky, the controls would hide a third of a phone's screen. */
  .controls { gap: 8px; position: static; }
  .filter { padding: 6px 10px; }
  .search { flex-basis: 100%; max-width: none; }
  .copy-row { flex-direction: column; }
  .copy { align-self: flex-start; }
  .req { padding: 10px; }
  .pill { width: auto; padding: 2px 8px; }
  .req-head { grid-template-columns: auto auto 1fr; }
  .req-main { grid-column: 1 / -1; }
  .facts { grid-template-columns: 1fr 1fr; }
  .expected-actual, .exchange-parts { grid-template-columns: 1fr; }
  .area-bar { grid-template-columns: minmax(0, 1fr); }
  .area-name { white-space: normal; overflow-wrap: anywhere; }
  /* A chart key such as "limit 1,000,000,000 (1,167 responses, lowest 999,999,990)" is wider than a phone. */
  .key { white-space: normal; overflow-wrap: anywhere; }
  .cause-list { padding-left: 18px; }
}
@media print {
  @page { margin: 14mm 12mm; }
  body { font-size: 10pt; }
  main { max-width: none; padding: 0; }
  .controls, .copy, .empty-result { display: none !important; }
  article.req[hidden], section.area[hidden] { display: block !important; }
  .banner, .req, .failure, pre, .notes, .cause { break-inside: avoid; }
  .banner, .pill, .id-chip, .filter, .notes, .seg, .swatch { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .req { border-color: #bbb; }
  pre { max-height: none; overflow: visible; }
  h2 { break-after: avoid; }
  a { color: inherit; text-decoration: none; }
  details > summary { list-style: none; }
}
`;
