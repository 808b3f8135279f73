// What a bench section is: a named piece of `npm run bench` answering figures, each measured
// against a baseline measured in the same run, so the ratio means something on any machine.

export type BenchOptions = {
  /** `--quick`: smaller sizes and shorter runs, the whole bench in under 2 minutes. */
  quick: boolean;
};

export type Figure = {
  name: string;
  value: number;
  /** What `value` is compared with, measured in the same run. */
  baseline: string;
  baselineValue: number;
  unit: 'req/s' | 'pages/s' | 'ms' | 'µs' | 'MB' | 'MB/s';
  /**
   * value / baselineValue unless measured in pairs (each run of the figure right after one of its
   * baseline): then the median of the pairs' ratios, which the machine's changing load moves less.
   */
  ratio?: number;
  /**
   * The performance goal, when there is one: for value / baselineValue, or for the value itself
   * (`of: 'value'`) where the goal is absolute (a latency bound).
   */
  goal?: { atLeast?: number; atMost?: number; of?: 'ratio' | 'value' };
};

export type Section = {
  name: string;
  run(options: BenchOptions): Promise<Figure[]>;
};
