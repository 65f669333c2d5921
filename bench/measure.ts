import { readdirSync, readFileSync } from 'node:fs';

/** One measured figure: every run's value, its median, and the budget it must keep. */
export interface Figure {
  /** What was measured, as a person reads it in the report. */
  name: string;
  unit: string;
  runs: number[];
  median: number;
  /** Upper bound the median must not exceed; undefined when the figure is informational. */
  budget?: number;
  /** Lower bound the median must reach (scores); undefined when there is none. */
  minimum?: number;
  ok: boolean;
}

/** What an area returns when its figures need more than the table: a markdown section and detail for report.json. */
export interface AreaReport {
  figures: Figure[];
  markdown?: string;
  detail?: unknown;
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

export function figure(name: string, unit: string, runs: number[], budget?: number, minimum?: number): Figure {
  const m = median(runs);
  return { name, unit, runs, median: m, budget, minimum, ok: (budget === undefined || m <= budget) && (minimum === undefined || m >= minimum) };
}

/** Proportional set size (shared pages divided among their users) of a process and all its descendants, in MB. */
export function treeMemoryMb(rootPid: number): number {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  const tree = new Set([rootPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parents) {
      if (tree.has(ppid) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  let kb = 0;
  for (const pid of tree) {
    try {
      const pss = /^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      kb += Number(pss?.[1] ?? 0);
    } catch {
      // Gone, or not readable: counts as nothing.
    }
  }
  return kb / 1024;
}
