import type { Registry } from 'prom-client';

/**
 * Counters and histograms for the request path. prom-client's own `inc` and `observe` hash their
 * label values into a new string on every call, and its `labels()` makes a new object each time: on
 * a path taken by every request that is garbage per request. Here a family hands out cells, made
 * once per label set and kept by whoever records; recording is arithmetic on a number or a typed
 * array. prom-client's registry still formats them (with its gauges and process metrics), reading
 * the cells only when Prometheus scrapes.
 */

type Labels = Record<string, string>;
interface Sample {
  labels: Labels;
  value: number;
  metricName?: string;
}

export class CounterCell {
  value = 0;

  constructor(readonly labels: Labels) {}

  inc(by = 1): void {
    this.value += by;
  }
}

export class HistogramCell {
  /** Per bucket (and +Inf last), not cumulative: cumulated when read. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Labels,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    const { bounds } = this;
    let i = 0;
    while (i < bounds.length && value > bounds[i]) i++;
    this.counts[i]++;
    this.sum += value;
    this.count++;
  }
}

abstract class Family<C extends { labels: Labels }> {
  readonly aggregator = 'sum' as const;
  protected readonly cells = new Map<string, C>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {}

  /** The cell of these label values (in `labelNames` order), made on first use. Keep it: the lookup builds a key. */
  cell(...values: string[]): C {
    if (values.length !== this.labelNames.length) throw new Error(`${this.name} takes ${this.labelNames.join(', ')}`);
    const key = values.join('\u0000');
    let cell = this.cells.get(key);
    if (!cell) {
      cell = this.make(Object.fromEntries(this.labelNames.map((n, i) => [n, values[i]])));
      this.cells.set(key, cell);
    }
    return cell;
  }

  protected abstract make(labels: Labels): C;
  abstract get(): Promise<{ name: string; help: string; type: string; aggregator: 'sum'; values: Sample[] }>;

  /** For prom-client's registry, which calls get() when scraped; reset() is for its resetMetrics(). */
  reset(): void {
    this.cells.clear();
  }

  registerIn(registry: Registry): this {
    registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
    return this;
  }
}

export class CounterFamily extends Family<CounterCell> {
  readonly type = 'counter';

  protected make(labels: Labels): CounterCell {
    return new CounterCell(labels);
  }

  get() {
    const values = [...this.cells.values()].map((c) => ({ labels: c.labels, value: c.value }));
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }
}

export class HistogramFamily extends Family<HistogramCell> {
  readonly type = 'histogram';

  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    readonly bounds: readonly number[],
  ) {
    super(name, help, labelNames);
  }

  protected make(labels: Labels): HistogramCell {
    return new HistogramCell(labels, this.bounds);
  }

  get() {
    const values: Sample[] = [];
    for (const c of this.cells.values()) {
      let cumulative = 0;
      for (let i = 0; i <= this.bounds.length; i++) {
        cumulative += c.counts[i];
        const le = i < this.bounds.length ? String(this.bounds[i]) : '+Inf';
        values.push({ metricName: `${this.name}_bucket`, labels: { ...c.labels, le }, value: cumulative });
      }
      values.push({ metricName: `${this.name}_sum`, labels: c.labels, value: c.sum });
      values.push({ metricName: `${this.name}_count`, labels: c.labels, value: c.count });
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }
}

/** Latency buckets in seconds, from a cached read to a slow report. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
