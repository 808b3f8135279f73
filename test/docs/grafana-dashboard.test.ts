import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry, timeStoreQuery } from '../../src/metrics.js';
import { timedStore } from '../../src/store/timed.js';
import { bearer, call, createChatbotViaApi, startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';

// docs/grafana-dashboard.json, checked without a Grafana: a dashboard Grafana imports (schema
// version, a Prometheus data source variable, panels with queries), whose queries name only series
// and labels a hub's real GET /metrics serves.

type Target = { refId?: string; expr?: string };
type Panel = {
  id?: number;
  type?: string;
  title?: string;
  gridPos?: { x: number; y: number; w: number; h: number };
  datasource?: { type?: string; uid?: string };
  targets?: Target[];
};
type Dashboard = {
  title?: string;
  uid?: string;
  schemaVersion?: number;
  templating?: { list?: { name: string; type: string; query?: unknown }[] };
  panels?: Panel[];
};

const sqlite = storeTargets.find((target) => target.name === 'sqlite');
if (!sqlite) throw new Error('no SQLite store target');

const dashboard = JSON.parse(await readFile(new URL('../../docs/grafana-dashboard.json', import.meta.url), 'utf8')) as Dashboard;
const graphs = (dashboard.panels ?? []).filter((panel) => panel.type !== 'row');
const expressions = graphs.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr ?? ''));

/** Label names a metric family's samples carry, by family, from Prometheus' text format. */
function families(text: string): Map<string, { type: string; labels: Set<string> }> {
  const found = new Map<string, { type: string; labels: Set<string> }>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) found.set(name as string, { type: type as string, labels: new Set() });
  for (const [, name, labels = ''] of text.matchAll(/^([a-zA-Z_:][\w:]*)(?:\{([^}]*)\})? \S+$/gm)) {
    const family = found.get(name as string) ?? found.get((name as string).replace(/_(bucket|sum|count)$/, ''));
    for (const [, label] of labels.matchAll(/(\w+)="/g)) family?.labels.add(label as string);
  }
  return found;
}

describe('the Grafana dashboard', () => {
  it('is a dashboard Grafana imports: schema version, a Prometheus data source variable, panels with queries', () => {
    expect(dashboard.title).toEqual(expect.any(String));
    expect(dashboard.uid).toMatch(/^[\w-]{1,40}$/);
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(dashboard.templating?.list).toContainEqual(expect.objectContaining({ name: 'datasource', type: 'datasource', query: 'prometheus' }));
    const ids = (dashboard.panels ?? []).map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(graphs.length).toBeGreaterThan(0);
    for (const panel of graphs) {
      expect(panel, panel.title).toMatchObject({ id: expect.any(Number), title: expect.any(String), datasource: { type: 'prometheus', uid: '${datasource}' } });
      expect(panel.gridPos?.w, panel.title).toBeLessThanOrEqual(24);
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      const refIds = (panel.targets ?? []).map((target) => target.refId);
      expect(new Set(refIds).size, panel.title).toBe(refIds.length);
      for (const target of panel.targets ?? []) expect(target.expr, panel.title).toMatch(/\S/);
    }
  });

  describe('queries what a hub serves', () => {
    let app: TestApp;
    let served: ReturnType<typeof families>;
    beforeAll(async () => {
      app = await startApp(sqlite, { wrapStore: (store) => timedStore(store, timeStoreQuery) });
      const chatbotId = await createChatbotViaApi(app, 'Graphed', 'We open at nine and close at five.');
      expect((await fetch(`${app.baseUrl}/get-chatbots`, { headers: bearer(app.apiKey) })).status).toBe(200);
      for (const stream of [false, true]) {
        const chat = await call('POST', `${app.baseUrl}/chat`, app.apiKey, { chatbotId, stream, messages: [{ role: 'user', content: 'When do you open?' }] });
        expect(chat.status).toBe(200);
      }
      served = families(await (await fetch(`${app.origin}/metrics`)).text());
    });
    afterAll(() => app.close());

    it('names only metric families GET /metrics serves', () => {
      const names = new Set(expressions.flatMap((expr) => expr.match(/\b(?:switchboard|process|nodejs)_\w+/g) ?? []));
      expect(names.size).toBeGreaterThan(10);
      for (const name of names) {
        const family = served.get(name) ?? served.get(name.replace(/_(bucket|sum|count)$/, ''));
        expect(family, name).toBeDefined();
        if (family && name !== name.replace(/_(bucket|sum|count)$/, '') && !served.has(name)) expect(family.type, name).toBe('histogram');
      }
    });

    it('groups and filters by labels those families carry', () => {
      for (const expr of expressions) {
        const metric = /\b(?:switchboard|process|nodejs)_\w+/.exec(expr)?.[0] ?? '';
        const family = served.get(metric) ?? served.get(metric.replace(/_(bucket|sum|count)$/, ''));
        // Prometheus adds job (and instance) at scrape; histograms' buckets carry le.
        // A family with no samples yet (no tokens from the offline responder, no platforms here)
        // is checked against the label names it was declared with.
        const declared = family?.labels.size ? [] : ((registry.getSingleMetric(metric.replace(/_(bucket|sum|count)$/, '')) as { labelNames?: string[] } | undefined)?.labelNames ?? []);
        const known = new Set([...(family?.labels ?? []), ...declared, 'job', 'instance', 'le']);
        const used = [
          ...[...expr.matchAll(/\bby \(([^)]*)\)/g)].flatMap(([, list]) => (list as string).split(',').map((label) => label.trim())),
          ...[...expr.matchAll(/\{([^}]*)\}/g)].flatMap(([, selectors]) => [...(selectors as string).matchAll(/(\w+)\s*[=!]~?"/g)].map(([, label]) => label as string)),
        ];
        for (const label of used) expect(known, `${label} in ${expr}`).toContain(label);
      }
    });
  });
});
