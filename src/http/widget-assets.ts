import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

// The widget's browser code (adapters/widget/), bundled once per process, in memory, the first
// time it is asked for: `npm start` serves it with no build step. Each asset carries a content
// hash, used as its ETag and in the window's asset names.

export type WidgetAsset = { body: string; type: string; hash: string };
export type WidgetAssets = { embed: WidgetAsset; windowScript: WidgetAsset; windowStyles: WidgetAsset };

const SOURCE_DIR = fileURLToPath(new URL('../../adapters/widget/', import.meta.url));

let bundled: Promise<WidgetAssets> | undefined;

export function widgetAssets(): Promise<WidgetAssets> {
  bundled ??= bundle();
  return bundled;
}

async function bundle(): Promise<WidgetAssets> {
  const result = await build({
    absWorkingDir: SOURCE_DIR,
    entryPoints: ['embed.ts', 'window.ts', 'window.css'],
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    outdir: 'out',
    write: false,
    legalComments: 'none',
  });
  const output = (name: string, type: string): WidgetAsset => {
    const file = result.outputFiles.find((candidate) => candidate.path.endsWith(`/out/${name}`));
    if (!file) throw new Error(`the widget bundle has no ${name}`);
    const hash = createHash('sha256').update(file.contents).digest('base64url').slice(0, 16);
    return { body: file.text, type, hash };
  };
  return {
    embed: output('embed.js', 'application/javascript; charset=utf-8'),
    windowScript: output('window.js', 'application/javascript; charset=utf-8'),
    windowStyles: output('window.css', 'text/css; charset=utf-8'),
  };
}
