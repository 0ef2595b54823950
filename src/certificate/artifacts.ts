import { renderHtml } from '../report/render-html.ts';
import { renderJunit } from '../report/render-junit.ts';
import type { ConformanceReport } from '../report/report-types.ts';
import { renderBadge } from './badge.ts';

/**
 * The human-facing files of a bundle, read back. Each must be exactly what the suite renders from the
 * bundle's conformance.json (the renderers are deterministic), and the verdict each shows is parsed from
 * its own element, never searched for as a word ("CONFORMANT" is part of "NOT CONFORMANT").
 */
export interface Artifact {
  name: string;
  /** The verdict label the file shows, read from its verdict element; undefined when it has none. */
  shows: string | undefined;
  /** The file is byte for byte what the report renders. */
  rendersFromReport: boolean;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#x27;': "'" };
const unescape = (text: string): string => text.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (entity) => ENTITIES[entity] ?? entity);

/** The one element each file states the verdict in; a second one would be a file built to mislead. */
const VERDICT_ELEMENT: Record<'html' | 'junit' | 'badge', RegExp> = {
  html: /<h1 class="verdict-word">([^<]*)<\/h1>/g,
  junit: /<testcase classname="conformance" name="Overall verdict: ([^"]*)"/g,
  badge: /<title>Animal Store [^:<]*: ([^<·]*?) · /g,
};

export function readArtifact(kind: keyof typeof VERDICT_ELEMENT, name: string, text: string, report: ConformanceReport): Artifact {
  const render = kind === 'html' ? renderHtml : kind === 'junit' ? renderJunit : renderBadge;
  const found = [...text.matchAll(VERDICT_ELEMENT[kind])].map((m) => unescape(m[1] ?? ''));
  let rendered: string | undefined;
  try {
    rendered = render(report);
  } catch {
    rendered = undefined;
  }
  return { name, shows: found.length === 1 ? found[0] : undefined, rendersFromReport: rendered === text };
}
