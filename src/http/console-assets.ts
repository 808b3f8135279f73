import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

// The owners' console (adapters/console/), bundled once per process, in memory, the first time it
// is asked for: `npm start` serves it with no build step. esbuild names each file by its content's
// hash, so every asset can be cached for good; pages load code they alone need (the charts) later.

export type ConsoleAsset = { body: Uint8Array; gzipped: Uint8Array; type: string };
export type ConsoleAssets = {
  /** The files under /console/assets/, by name. */
  files: Map<string, ConsoleAsset>;
  /** The names of the entry script and its styles, which the page links. */
  script: string;
  styles: string;
};

const SOURCE_DIR = fileURLToPath(new URL('../../adapters/console/', import.meta.url));
const TYPES: Record<string, string> = {
  js: 'application/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

let bundled: Promise<ConsoleAssets> | undefined;

export function consoleAssets(): Promise<ConsoleAssets> {
  bundled ??= bundle();
  return bundled;
}

async function bundle(): Promise<ConsoleAssets> {
  const result = await build({
    absWorkingDir: SOURCE_DIR,
    entryPoints: ['main.tsx'],
    bundle: true,
    splitting: true,
    minify: true,
    format: 'esm',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    outdir: 'out',
    write: false,
    metafile: true,
    legalComments: 'none',
  });
  const files = new Map<string, ConsoleAsset>();
  for (const file of result.outputFiles) {
    const name = file.path.slice(file.path.lastIndexOf('/') + 1);
    const type = TYPES[name.slice(name.lastIndexOf('.') + 1)];
    if (type) files.set(name, { body: file.contents, gzipped: gzipSync(file.contents, { level: 9 }), type });
  }
  const [entry, output] = Object.entries(result.metafile.outputs).find(([, meta]) => meta.entryPoint === 'main.tsx') ?? [];
  if (!entry || !output?.cssBundle) throw new Error('the console bundle has no entry script or styles');
  const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);
  return { files, script: nameOf(entry), styles: nameOf(output.cssBundle) };
}
