import { performance } from 'node:perf_hooks';
import { analyticsSection } from './analytics.js';
import { benchAnswers } from './answers.js';
import { crawlSection } from './crawl.js';
import { extractionSection } from './extraction.js';
import { handoffSection } from './handoff.js';
import { httpSection } from './http.js';
import { indexLoadSection } from './index-load.js';
import { pagingSection } from './paging.js';
import type { Figure, Section } from './section.js';
import { benchRetrieval } from './retrieval.js';
import { sourcesTrainingSection } from './sources-training.js';
import { trainingSection } from './training.js';
import { putHelperThreadsBelowEventLoop } from '../src/worker-thread.js';

// `npm run bench [-- --quick] [words…]`: every figure of the performance goals, each as a ratio
// against a baseline measured in the same run; words pick the sections whose names hold one.
// A section is one module answering its figures (section.ts); adding one is an import and a line
// in SECTIONS.

// This process runs as the hub's does (src/main.ts), its helper threads below the event loop: the
// sections that train or search in process measure what the hub's event loop would see.
putHelperThreadsBelowEventLoop();

const SECTIONS: Section[] = [
  httpSection,
  pagingSection,
  analyticsSection,
  trainingSection,
  sourcesTrainingSection,
  indexLoadSection,
  extractionSection,
  crawlSection,
  handoffSection,
  printing('answers (development and held-out sets against BM25)', benchAnswers),
  printing('retrieval (index builds, cold start, cache)', benchRetrieval),
];

/** A section that prints its own tables (scores and timings that are not ratios to a goal). */
function printing(name: string, run: () => unknown): Section {
  return {
    name,
    async run() {
      await run();
      return [];
    },
  };
}

const quick = process.argv.includes('--quick');
const words = process.argv.slice(2).filter((arg) => !arg.startsWith('--')).map((word) => word.toLowerCase());
const chosen = SECTIONS.filter(({ name }) => !words.length || words.some((word) => name.toLowerCase().includes(word)));
const started = performance.now();
const failedGoals: string[] = [];

for (const section of chosen) {
  const sectionStart = performance.now();
  const figures = await section.run({ quick });
  console.log(`\n${section.name} (${((performance.now() - sectionStart) / 1000).toFixed(0)} s)`);
  if (figures.length) printTable(figures);
  for (const figure of figures) if (missesGoal(figure)) failedGoals.push(figure.name);
}

console.log(`\n${quick ? 'quick' : 'full'} bench, Node ${process.version}, ${((performance.now() - started) / 1000).toFixed(0)} s in all`);
if (failedGoals.length) {
  console.log(`goals missed: ${failedGoals.join('; ')}`);
  process.exitCode = 1;
}

function ratioOf(figure: Figure): number {
  return figure.ratio ?? figure.value / figure.baselineValue;
}

/** Two decimals, or two significant digits for a small ratio (extraction against JSON.parse). */
function ratioText(ratio: number): string {
  return ratio >= 0.1 ? ratio.toFixed(2) : ratio.toPrecision(2);
}

function missesGoal(figure: Figure): boolean {
  const { goal } = figure;
  const measured = goal?.of === 'value' ? figure.value : ratioOf(figure);
  return (goal?.atLeast !== undefined && measured < goal.atLeast) || (goal?.atMost !== undefined && measured > goal.atMost);
}

function printTable(figures: Figure[]): void {
  const amount = (value: number, unit: Figure['unit']) =>
    `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ${unit}`;
  const goalText = (figure: Figure) => {
    if (!figure.goal) return '';
    const { atLeast, atMost, of } = figure.goal;
    const shown = (limit: number | undefined) => Number(limit?.toFixed(3));
    const bound = atLeast !== undefined ? `≥ ${shown(atLeast)}` : `≤ ${shown(atMost)}`;
    return `${bound}${of === 'value' ? ` ${figure.unit}` : ''} ${missesGoal(figure) ? 'MISSED' : 'met'}`;
  };
  const rows = [
    ['figure', 'value', 'baseline', 'baseline value', 'ratio', 'goal'],
    ...figures.map((figure) => [
      figure.name,
      amount(figure.value, figure.unit),
      figure.baseline,
      amount(figure.baselineValue, figure.unit),
      `${ratioText(ratioOf(figure))}x`,
      goalText(figure),
    ]),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] as string).length))) ?? [];
  const line = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column] as number)).join('  ').trimEnd();
  console.log(line(rows[0] as string[]));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows.slice(1)) console.log(line(row));
}
