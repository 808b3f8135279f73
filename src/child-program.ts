import { createHash } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

// A child process's entry (process-jobs.ts) is a .ts module, which Node.js runs only with tsx's
// loader, as the hub is run (`node --import tsx`). In a child that reads files the loader held
// most of the memory: an extraction child took about 530 MB once it had read files under tsx,
// 130 MB without it. So the entry, with the project's modules it imports, is bundled into one
// JavaScript module with esbuild (a dependency already) on first use, and the child runs that
// without tsx; packages stay imports, loaded from node_modules as they are. Where bundling fails,
// the child runs the entry with tsx.

/** Where bundles are written: under node_modules, so that the packages they import are found from them. */
const BUNDLES = new URL('../node_modules/.cache/switchboard/', import.meta.url);
/** The hub's loader, by its path so that any working directory will do. */
const TSX = import.meta.resolve('tsx');

/** How a child process runs its entry: the module it starts, and Node.js's options for it. */
export type ChildProgram = { modulePath: string; execArgv: string[] };

/** Bundles made one after another: esbuild's service is stopped after each, which would fail one under way. */
let bundling: Promise<unknown> = Promise.resolve();

/** The program of a child process whose entry is given: its bundle, else the entry itself with tsx. Never rejects. */
export async function childProgram(entry: URL): Promise<ChildProgram> {
  const bundled = bundling.then(() => bundle(entry));
  bundling = bundled.catch(() => {});
  try {
    return { modulePath: await bundled, execArgv: [] };
  } catch {
    return { modulePath: fileURLToPath(entry), execArgv: ['--import', TSX] };
  }
}

/**
 * The entry bundled, in a file named by its content: hubs bundling it at once write the same
 * bytes, and an entry changed since is a file of its own.
 */
async function bundle(entry: URL): Promise<string> {
  const { build, stop } = await import('esbuild');
  // Stopped once done: its service process would keep 16 MB for the hub's life.
  const [output] = await build({ entryPoints: [fileURLToPath(entry)], bundle: true, platform: 'node', format: 'esm', packages: 'external', write: false, logLevel: 'silent' })
    .then(({ outputFiles }) => outputFiles)
    .finally(stop);
  if (!output) throw new Error(`esbuild wrote no bundle of ${entry.href}`);
  const hash = createHash('sha256').update(output.contents).digest('base64url').slice(0, 16);
  const file = fileURLToPath(new URL(`${basename(entry.pathname, '.ts')}-${hash}.mjs`, BUNDLES));
  await mkdir(fileURLToPath(BUNDLES), { recursive: true });
  // Written aside and renamed: no child starts a file half written.
  const partial = `${file}.${process.pid}`;
  await writeFile(partial, output.contents);
  await rename(partial, file);
  return file;
}
