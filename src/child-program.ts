import { createHash } from 'node:crypto';
import { renameSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, stat, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// A child process's entry (process-jobs.ts) is a .ts module, which Node.js runs only with tsx's
// loader, as the hub is run (`node --import tsx`). In a child that reads files the loader held
// most of the memory: an extraction child took about 530 MB once it had read files under tsx,
// 130 MB without it. So the entry, with the project's modules it imports, is bundled into one
// JavaScript module with esbuild (a dependency already) on first use, and the child runs that
// without tsx; packages stay imports, loaded from node_modules as they are. Where bundling fails,
// the child runs the entry with tsx. A bundle written removes the entry's older ones (about 48 KB
// each, one a change to the code), but those a hub on the same checkout started a child from
// within the last minute: a running child has read its file, and a hub whose bundle was removed
// writes it again before it starts a child from it (ChildProgram.prepare).

/** Where bundles are written: under node_modules, so that the packages they import are found from them. */
const BUNDLES = new URL('../node_modules/.cache/switchboard/', import.meta.url);
/** The hub's loader, by its path so that any working directory will do. */
const TSX = import.meta.resolve('tsx');

/** Bundles of an entry not used for this long are stale: removed when another of the entry's is written. */
const STALE_AFTER_MS = 60_000;

/**
 * How a child process runs its entry: the module it starts, Node.js's options for it, and what to
 * do before a child starts from it (synchronous, as starting one is: the bundle's time of use set,
 * and the bundle written again only where another hub removed it).
 */
export type ChildProgram = { modulePath: string; execArgv: string[]; prepare(): void };

/** Bundles made one after another: esbuild's service is stopped after each, which would fail one under way. */
let bundling: Promise<unknown> = Promise.resolve();

/** The program of a child process whose entry is given: its bundle, else the entry itself with tsx. Never rejects. */
export async function childProgram(entry: URL): Promise<ChildProgram> {
  const bundled = bundling.then(() => bundle(entry));
  bundling = bundled.catch(() => {});
  try {
    const { file, contents } = await bundled;
    return { modulePath: file, execArgv: [], prepare: () => markUsed(file, contents) };
  } catch {
    return { modulePath: fileURLToPath(entry), execArgv: ['--import', TSX], prepare: () => {} };
  }
}

/**
 * The entry bundled, in a file named by its content: hubs bundling it at once write the same
 * bytes, and an entry changed since is a file of its own.
 */
async function bundle(entry: URL): Promise<{ file: string; contents: Uint8Array }> {
  const { build, stop } = await import('esbuild');
  // Stopped once done: its service process would keep 16 MB for the hub's life.
  const [output] = await build({ entryPoints: [fileURLToPath(entry)], bundle: true, platform: 'node', format: 'esm', packages: 'external', write: false, logLevel: 'silent' })
    .then(({ outputFiles }) => outputFiles)
    .finally(stop);
  if (!output) throw new Error(`esbuild wrote no bundle of ${entry.href}`);
  const name = basename(entry.pathname, '.ts');
  const hash = createHash('sha256').update(output.contents).digest('base64url').slice(0, 16);
  const file = fileURLToPath(new URL(`${name}-${hash}.mjs`, BUNDLES));
  await mkdir(fileURLToPath(BUNDLES), { recursive: true });
  write(file, output.contents);
  await removeStale(name, file);
  return { file, contents: output.contents };
}

/** Writes a bundle aside and renames it: no child starts a file half written. */
function write(file: string, contents: Uint8Array): void {
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, contents);
  renameSync(partial, file);
}

/** Marks a bundle as used now, so that no other hub removes it as stale; writes it again where one has. */
function markUsed(file: string, contents: Uint8Array): void {
  try {
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    write(file, contents);
  }
}

/**
 * Removes the entry's bundles other than `current` that no child started from within
 * STALE_AFTER_MS. A file written aside (its name ends in a process id) is none yet. Never fails:
 * a bundle left is only space.
 */
async function removeStale(name: string, current: string): Promise<void> {
  const directory = fileURLToPath(BUNDLES);
  // "name-" and a hash of 16 characters: another entry's name is longer or begins otherwise.
  const isOwn = (file: string) => file.startsWith(`${name}-`) && file.endsWith('.mjs') && file.length === name.length + 21;
  const files = (await readdir(directory).catch(() => [])).filter(isOwn).map((file) => join(directory, file));
  const removeIfStale = async (file: string) => {
    if (Date.now() - (await stat(file)).mtimeMs > STALE_AFTER_MS) await unlink(file);
  };
  await Promise.all(files.filter((file) => file !== current).map((file) => removeIfStale(file).catch(() => {})));
}
