export { buildMatrix, type BuildOptions } from './build-matrix.ts';
export { renderMatrixHtml } from './html/render-matrix-html.ts';
export type { CellStatus, Matrix, MatrixCell, MatrixColumn, MatrixInput, MatrixRow, Trust } from './matrix-types.ts';
export { renderMatrixMarkdown } from './render-markdown.ts';
export { MATRIX_USAGE, runMatrix } from './run-matrix.ts';
export { type InputOutcome, type TrustedKey, loadTrustedKeys, readInputs } from './verify-input.ts';
export { MATRIX_FILES, renderMatrixJson, writeMatrix } from './write-matrix.ts';
