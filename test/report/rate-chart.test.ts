import { expect, test } from 'vitest';
import { rateChart, stepPath } from '../../src/report/html/rate-chart.ts';
import type { RateLimitPoint } from '../../src/report/report-types.ts';

test('the rate chart draws steps: a window refilling is a vertical jump, never a diagonal', () => {
  expect(
    stepPath([
      [10, 100],
      [20, 110],
      [30, 110],
      [40, 20],
    ]),
  ).toBe('M10.0,100.0 H20.0 V110.0 H30.0 H40.0 V20.0');

  // Spent to 0 over 3 requests, then refilled by the fourth, 60 s later.
  const points: RateLimitPoint[] = [
    { startedAt: 0, remaining: 2, limit: 3 },
    { startedAt: 1_000, remaining: 1, limit: 3 },
    { startedAt: 2_000, remaining: 0, limit: 3 },
    { startedAt: 62_000, remaining: 2, limit: 3 },
  ];
  const page = rateChart(points).value;
  const lines = [...page.matchAll(/<path d="([^"]+)"/g)].map((m) => m[1]!);
  expect(lines).toHaveLength(1);
  const commands = lines[0]!.split(' ');
  // Only moves along one axis at a time after the start.
  expect(commands[0]).toMatch(/^M[\d.]+,[\d.]+$/);
  for (const command of commands.slice(1)) expect(command).toMatch(/^[HV][\d.]+$/);
  // The refill: a horizontal run at 0 up to the fourth request, then straight up at that x.
  const last = commands.slice(-2);
  expect(last[0]).toMatch(/^H/);
  expect(last[1]).toMatch(/^V/);
  expect(Number(last[1]!.slice(1))).toBeLessThan(Number(commands.at(-3)!.slice(1)));
});
