/** One measured figure: every run's value, its median, and the budget it must keep. */
export interface Figure {
  /** What was measured, as a person reads it in the report. */
  name: string;
  unit: string;
  runs: number[];
  median: number;
  /** Upper bound the median must not exceed; undefined when the figure is informational. */
  budget?: number;
  ok: boolean;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function figure(name: string, unit: string, runs: number[], budget?: number): Figure {
  const m = median(runs);
  return { name, unit, runs, median: m, budget, ok: budget === undefined || m <= budget };
}
