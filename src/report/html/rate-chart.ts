import type { RateLimitPoint } from '../report-types.ts';
import { formatDuration, grouped, plural } from './format.ts';
import { type SafeHtml, html } from './safe-html.ts';

const WIDTH = 720;
const HEIGHT = 200;
const PAD = { left: 48, right: 16, top: 14, bottom: 34 };
/** Points per line: enough to show every window, few enough to keep the report small. */
const MAX_POINTS = 360;
const COLOURS = ['#0b5cad', '#7a3fb0', '#a3245c', '#2d6a4f'];

interface Series {
  limit: number;
  points: RateLimitPoint[];
}

/**
 * X-RateLimit-Remaining over the run as a share of its limit, one line per limit seen (the embedded
 * reference uses a second key with a small limit for the exhaustion test), drawn as steps. Red marks where it hit 0.
 */
export function rateChart(points: readonly RateLimitPoint[]): SafeHtml {
  if (points.length === 0) return html`<p class="muted">No response carried X-RateLimit-Remaining.</p>`;
  const start = points[0]!.startedAt;
  const span = Math.max(1, points.at(-1)!.startedAt - start);
  const series = splitByLimit(points);
  const x = (t: number) => PAD.left + ((t - start) / span) * (WIDTH - PAD.left - PAD.right);
  const y = (share: number) => PAD.top + (1 - Math.min(1, Math.max(0, share))) * (HEIGHT - PAD.top - PAD.bottom);
  const lines = series.map((s, index) => {
    const path = stepPath(downsample(s.points).map((p) => [x(p.startedAt), y(p.remaining / s.limit)] as const));
    return html`<path d="${path}" fill="none" stroke="${COLOURS[index % COLOURS.length]}" stroke-width="1.6" stroke-linejoin="round"/>`;
  });
  const zeros = points.filter((p) => p.remaining === 0).slice(0, 40);
  const grid = [0, 0.5, 1].map(
    (share) =>
      html`<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y(share)}" y2="${y(share)}" class="grid"/><text x="${PAD.left - 6}" y="${y(share) + 4}" text-anchor="end">${share * 100}%</text>`,
  );
  const title = `X-RateLimit-Remaining over ${formatDuration(span)}, ${plural(points.length, 'response')}`;
  return html`<figure class="chart">
  <svg viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" role="img" aria-label="${title}" xmlns="http://www.w3.org/2000/svg">
    <title>${title}</title>
    ${grid}
    <line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${HEIGHT - PAD.bottom}" y2="${HEIGHT - PAD.bottom}" class="axis"/>
    <text x="${PAD.left}" y="${HEIGHT - 12}">0 s</text>
    <text x="${WIDTH - PAD.right}" y="${HEIGHT - 12}" text-anchor="end">${formatDuration(span)}</text>
    <text x="${(WIDTH + PAD.left) / 2}" y="${HEIGHT - 12}" text-anchor="middle">time since the first request</text>
    ${lines}
    ${zeros.map((p) => html`<circle cx="${x(p.startedAt).toFixed(1)}" cy="${y(0)}" r="3" class="zero"/>`)}
  </svg>
  <figcaption>${title}. ${series.map(
    (s, index) =>
      html`<span class="key"><span class="swatch" style="background:${COLOURS[index % COLOURS.length]}"></span>limit ${grouped(s.limit)} (${plural(s.points.length, 'response')}, lowest ${grouped(Math.min(...s.points.map((p) => p.remaining)))})</span> `,
  )}</figcaption>
</figure>`;
}

/**
 * A step line through the points: the count holds until the next response says otherwise, so a window
 * refilling is a vertical jump at the response that saw it, never a diagonal across the wait before it.
 */
export function stepPath(points: ReadonlyArray<readonly [number, number]>): string {
  const [first, ...rest] = points;
  if (!first) return '';
  let d = `M${first[0].toFixed(1)},${first[1].toFixed(1)}`;
  let previousY = first[1];
  for (const [px, py] of rest) {
    d += ` H${px.toFixed(1)}`;
    if (py !== previousY) d += ` V${py.toFixed(1)}`;
    previousY = py;
  }
  return d;
}

function splitByLimit(points: readonly RateLimitPoint[]): Series[] {
  const byLimit = new Map<number, RateLimitPoint[]>();
  const fallback = Math.max(1, ...points.map((p) => p.remaining));
  for (const point of points) {
    const limit = point.limit !== undefined && point.limit > 0 ? point.limit : fallback;
    const list = byLimit.get(limit);
    if (list) list.push(point);
    else byLimit.set(limit, [point]);
  }
  return [...byLimit.entries()].sort((a, b) => b[1].length - a[1].length).map(([limit, list]) => ({ limit, points: list }));
}

/** Keeps the lowest point of each time bucket: a drop to 0 must survive the thinning. */
function downsample(points: readonly RateLimitPoint[]): RateLimitPoint[] {
  if (points.length <= MAX_POINTS) return [...points];
  const start = points[0]!.startedAt;
  const span = Math.max(1, points.at(-1)!.startedAt - start);
  const buckets = new Map<number, RateLimitPoint>();
  for (const point of points) {
    const bucket = Math.min(MAX_POINTS - 1, Math.floor(((point.startedAt - start) / span) * MAX_POINTS));
    const kept = buckets.get(bucket);
    if (!kept || point.remaining < kept.remaining) buckets.set(bucket, point);
  }
  return [...buckets.values()].sort((a, b) => a.startedAt - b.startedAt);
}
