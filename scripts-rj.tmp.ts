import { readFileSync } from 'node:fs';
import { loadCatalog } from './src/catalog/catalog.ts';
import { createContract } from './src/contract/index.ts';
import { rejudge } from './src/certificate/rejudge.ts';
const dir = process.argv[2];
const t0 = performance.now();
const r = rejudge(JSON.parse(readFileSync(`${dir}/conformance.json`, 'utf8')), JSON.parse(readFileSync(`${dir}/exchanges.har`, 'utf8')), loadCatalog(), createContract());
console.log(JSON.stringify({ ...r, differences: r.differences.slice(0, 30), nd: r.differences.length }, null, 1), performance.now() - t0);
