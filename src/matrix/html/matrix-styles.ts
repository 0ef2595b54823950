/**
 * What the matrix page adds to the report's stylesheet (STYLES, whose colours and type it shares): a
 * wide table that scrolls inside its own box, so a phone never scrolls the page sideways, and a cell
 * style per status that reads without colour too (a symbol and a word in every cell).
 */
export const MATRIX_STYLES = `
main.matrix-page { max-width: 1400px; }
.matrix-page h1 { font-size: 28px; margin: 0 0 4px; letter-spacing: -0.01em; }
.lede { margin: 0 0 18px; color: var(--muted); }
.verdict-text-conformant { color: var(--pass); } .verdict-text-not-conformant { color: var(--fail); }
.verdict-text-partial { color: #2f6fb0; } .verdict-text-incomplete { color: var(--warn); }
.scroll { overflow-x: auto; max-width: 100%; -webkit-overflow-scrolling: touch; }
.answer { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 14px; margin: 0 0 8px; }
.answer > div { border: 1px solid var(--line); border-radius: 6px; padding: 14px 18px; background: var(--soft); min-width: 0; }
.answer .label { margin-bottom: 6px; }
.answer .big { font-size: 20px; font-weight: 700; margin: 0 0 4px; overflow-wrap: anywhere; }
.answer p { margin: 0; overflow-wrap: anywhere; }
.pick { border-left: 8px solid var(--pass) !important; background: #f4fbf6 !important; }
.pick-none { border-left: 8px solid var(--fail) !important; background: #fff7f6 !important; }
.worst { border-left: 8px solid var(--fail) !important; }
.ranking td, .ranking th { vertical-align: top; }
.ranking tbody tr:first-child { background: #f4fbf6; font-weight: 600; }
.ranking .impl-name { overflow-wrap: anywhere; min-width: 10em; }
.trust { display: inline-block; font-size: 11px; font-weight: 700; letter-spacing: .04em; text-transform: uppercase; padding: 1px 6px; border-radius: 4px; white-space: nowrap; }
.trust-verified { background: var(--pass-bg); color: var(--pass); }
.trust-unsigned-bundle, .trust-unsigned-report { background: var(--warn-bg); color: var(--warn); }
.trust-not-verified { background: var(--fail); color: #fff; }
.fp { font-family: var(--mono); font-size: 12px; overflow-wrap: anywhere; }
.most-failed { margin: 0; padding-left: 20px; }
.most-failed li { margin: 2px 0; overflow-wrap: anywhere; }

.matrix-controls { display: none; flex-wrap: wrap; align-items: center; gap: 10px 16px; margin: 8px 0 10px; }
.js .matrix-controls { display: flex; }
.matrix-controls label { font-size: 14px; white-space: nowrap; }
.matrix-controls select { font: inherit; font-size: 14px; padding: 4px 6px; max-width: 100%; }
.table-box { overflow: auto; max-width: 100%; max-height: 80vh; border: 1px solid var(--line); border-radius: 6px; }
table.impl-matrix { width: max-content; min-width: 100%; border-collapse: separate; border-spacing: 0; }
.impl-matrix th, .impl-matrix td { border-bottom: 1px solid var(--line); padding: 5px 8px; background: var(--paper); }
.impl-matrix thead th { position: sticky; top: 0; z-index: 2; text-transform: none; letter-spacing: 0; color: var(--ink); font-size: 12.5px; vertical-align: bottom; min-width: 8em; max-width: 11em; border-bottom: 2px solid var(--line); }
.impl-matrix thead th.corner { z-index: 3; left: 0; }
.impl-matrix .req-cell { position: sticky; left: 0; z-index: 1; max-width: 19em; border-right: 1px solid var(--line); }
.impl-matrix .req-cell a { font: 600 13px var(--mono); text-decoration: none; }
.impl-matrix .req-text { display: block; font-weight: normal; font-size: 12px; color: var(--muted); white-space: normal; line-height: 1.3; }
.col-name { display: -webkit-box; -webkit-line-clamp: 3; -webkit-box-orient: vertical; overflow: hidden; font-size: 13.5px; font-weight: 700; overflow-wrap: anywhere; }
.col-meta { display: block; font-weight: normal; color: var(--muted); overflow-wrap: anywhere; }
.area-head th { background: var(--soft); font-size: 12px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); position: sticky; left: 0; }
.cell { text-align: center; white-space: nowrap; font-size: 12.5px; font-weight: 600; }
.cell a { color: inherit; }
.cell-pass { color: var(--pass); }
.cell-fail { background: var(--fail-bg) !important; color: var(--fail); font-weight: 800; }
.cell-warn { background: var(--warn-bg) !important; color: var(--warn); }
.cell-deviation { background: var(--dev-bg) !important; color: var(--dev); }
.cell-untested { color: var(--skip); font-weight: normal; }
.cell-out-of-scope, .cell-absent { color: #8c959f; font-weight: normal; }
.col-not-verified { background-image: repeating-linear-gradient(135deg, transparent 0 6px, rgba(180,35,24,.07) 6px 12px) !important; opacity: .8; }
.change { display: inline-block; margin-left: 4px; font-size: 10px; font-weight: 700; text-transform: uppercase; letter-spacing: .03em; padding: 0 4px; border-radius: 3px; }
.change-newly-failing { background: var(--fail); color: #fff; }
.change-fixed { background: var(--pass); color: #fff; }
.change-newly-untested, .change-newly-tested, .change-reason-changed, .change-changed { background: var(--skip-bg); color: var(--skip); }
.row-count { text-align: right; white-space: nowrap; font-size: 12.5px; }
.row-count-failing { color: var(--fail); font-weight: 700; }
.col-counts td { font-size: 12px; text-align: center; color: var(--muted); background: var(--soft); }
.history-list { margin: 0; padding-left: 20px; }
.history-list li { margin: 4px 0; overflow-wrap: anywhere; }
.details-table td, .details-table th { vertical-align: top; font-size: 13px; }
.details-table td { overflow-wrap: anywhere; min-width: 8em; }
.problems { margin: 4px 0 0; padding-left: 18px; color: var(--fail); }
.evidence { border: 1px solid var(--line); border-left: 4px solid var(--fail); border-radius: 6px; padding: 10px 14px; margin: 10px 0; min-width: 0; }
.evidence-warn { border-left-color: #d08a00; } .evidence-deviation { border-left-color: var(--dev); }
.evidence h4 { margin: 0 0 6px; font-size: 14px; overflow-wrap: anywhere; }
.evidence p { margin: 4px 0; overflow-wrap: anywhere; }
.evidence pre { margin: 4px 0; }
.badges { display: flex; flex-wrap: wrap; gap: 6px 18px; }
@media (max-width: 760px) {
  .matrix-page h1 { font-size: 22px; }
  .impl-matrix .req-text { display: none; }
  .impl-matrix .req-cell { max-width: 8.5em; }
  .impl-matrix thead th { min-width: 7.5em; }
  .impl-matrix .col-extra { display: none; }
}
@media print {
  .table-box { max-height: none; overflow: visible; }
  .impl-matrix thead th, .impl-matrix .req-cell { position: static; }
  tr.req-row[hidden], tbody.area-group[hidden] { display: table-row !important; }
  tbody.area-group[hidden] { display: table-row-group !important; }
  .matrix-controls { display: none !important; }
}
`;
