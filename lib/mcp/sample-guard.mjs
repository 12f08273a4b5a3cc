/**
 * Loaded with `node --import` into each runnable sample MCP server (lib/mcp/config.ts starts them)
 * before the server's own code: keeps everything the server writes inside one person's folder and
 * within that folder's caps. Plain JavaScript, because it runs in the sample's own Node process.
 *
 * The folder is TOOLFLOW_SAMPLE_GUARD_ROOT; it is created here, at the server's start, so a space
 * exists from its first use on. Every way the samples change files goes through `fs.promises`
 * (writeFile, appendFile, copyFile, mkdir, rename, unlink, rm, rmdir), and each is checked first:
 *
 * - it must act inside the folder, symlinks resolved (`EACCES` otherwise), whatever path the
 *   server's own checks let through;
 * - a write must leave the folder within TOOLFLOW_SAMPLE_GUARD_MAX_BYTES of file content and
 *   TOOLFLOW_SAMPLE_GUARD_MAX_ENTRIES files and folders (`EDQUOT` otherwise, with a message that
 *   says the cap, where the folder would stand, and what to do). A file written over, or a
 *   `<file>.<32 hex>.tmp` that both servers write and then rename over `<file>`, counts only by
 *   how much it grows.
 *
 * The servers turn the error into a tool result with `isError`, so the step fails with the message.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';

const root = process.env.TOOLFLOW_SAMPLE_GUARD_ROOT;
const maxBytes = Number(process.env.TOOLFLOW_SAMPLE_GUARD_MAX_BYTES);
const maxEntries = Number(process.env.TOOLFLOW_SAMPLE_GUARD_MAX_ENTRIES);
const what = process.env.TOOLFLOW_SAMPLE_GUARD_NAME || 'sample folder';
if (!root || !path.isAbsolute(root) || !(maxBytes > 0) || !(maxEntries > 0)) {
  console.error(
    'toolflow sample guard: TOOLFLOW_SAMPLE_GUARD_ROOT, _MAX_BYTES and _MAX_ENTRIES must be set.',
  );
  process.exit(1);
}
fs.mkdirSync(root, { recursive: true, mode: 0o700 });
const realRoot = fs.realpathSync(root);

/** A replacement file both servers write beside the one it replaces, then rename over it. */
const TEMP_FILE = /^(.*)\.[0-9a-f]{32}\.tmp$/;

const mb = (bytes) => `${(bytes / 1_000_000).toFixed(bytes < 100_000 ? 2 : 1)} MB`;

function fail(code, message) {
  const error = new Error(message);
  error.code = code;
  return error;
}

/** `target` as a real path when what it names (or its nearest existing parent) is inside the folder. */
function resolveInside(target) {
  const absolute = path.resolve(String(target));
  let existing = absolute;
  const rest = [];
  for (;;) {
    try {
      existing = fs.realpathSync(existing);
      break;
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) break;
      rest.unshift(path.basename(existing));
      existing = parent;
    }
  }
  const real = path.join(existing, ...rest);
  if (real !== realRoot && !real.startsWith(realRoot + path.sep)) {
    throw fail('EACCES', `Access denied: this sample works only inside your own folder (${realRoot}).`);
  }
  return real;
}

/** File content bytes and the number of files and folders in the folder now. */
function getUsage() {
  let bytes = 0;
  let entries = 0;
  const folders = [realRoot];
  while (folders.length) {
    const folder = folders.pop();
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      entries++;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) folders.push(full);
      else bytes += fs.lstatSync(full).size;
    }
  }
  return { bytes, entries };
}

const sizeOf = (file) => {
  try {
    const stat = fs.lstatSync(file);
    return stat.isFile() ? stat.size : undefined;
  } catch {
    return undefined;
  }
};

/** Refuses a write of `added` bytes to `target` that would take the folder past a cap. */
function checkWrite(target, added, { append = false } = {}) {
  const file = resolveInside(target);
  const existing = sizeOf(file);
  const replaces = TEMP_FILE.exec(file)?.[1];
  const replaced = append ? 0 : (existing ?? (replaces !== undefined ? (sizeOf(replaces) ?? 0) : 0));
  const newEntry = existing === undefined && (replaces === undefined || sizeOf(replaces) === undefined);
  const usage = getUsage();
  const bytes = usage.bytes - replaced + added;
  if (bytes > maxBytes) {
    throw fail(
      'EDQUOT',
      `Your ${what} is full: it may hold ${mb(maxBytes)}, and this write of ${mb(added)} would bring it to ${mb(bytes)}. Make the content smaller or remove what you no longer need.`,
    );
  }
  if (newEntry && usage.entries + 1 > maxEntries) {
    throw fail(
      'EDQUOT',
      `Your ${what} is full: it may hold ${maxEntries.toLocaleString('en-US')} files and folders. Write into an existing file or remove what you no longer need.`,
    );
  }
}

function byteLengthOf(data, options) {
  if (typeof data === 'string') {
    const encoding = typeof options === 'string' ? options : options?.encoding;
    return Buffer.byteLength(data, encoding || 'utf8');
  }
  if (ArrayBuffer.isView(data)) return data.byteLength;
  throw fail('EINVAL', 'The sample guard accepts strings and buffers only.');
}

const original = {
  writeFile: fsp.writeFile,
  appendFile: fsp.appendFile,
  copyFile: fsp.copyFile,
  mkdir: fsp.mkdir,
  rename: fsp.rename,
  unlink: fsp.unlink,
  rm: fsp.rm,
  rmdir: fsp.rmdir,
};

/** Runs `check` first, so a refusal is a rejected promise, as the real call's failure would be. */
const guard =
  (name, check) =>
  async (...args) => {
    check(...args);
    return original[name](...args);
  };

fsp.writeFile = guard('writeFile', (file, data, options) => checkWrite(file, byteLengthOf(data, options)));
fsp.appendFile = guard('appendFile', (file, data, options) =>
  checkWrite(file, byteLengthOf(data, options), { append: true }),
);
fsp.copyFile = guard('copyFile', (from, to) => {
  resolveInside(from);
  checkWrite(to, sizeOf(resolveInside(from)) ?? 0);
});
fsp.mkdir = guard('mkdir', (folder) => {
  const target = resolveInside(folder);
  let missing = 0;
  for (let at = target; !fs.existsSync(at); at = path.dirname(at)) missing++;
  if (missing > 0 && getUsage().entries + missing > maxEntries) {
    throw fail(
      'EDQUOT',
      `Your ${what} is full: it may hold ${maxEntries.toLocaleString('en-US')} files and folders. Remove what you no longer need.`,
    );
  }
});
fsp.rename = guard('rename', (from, to) => {
  resolveInside(from);
  resolveInside(to);
});
for (const name of ['unlink', 'rm', 'rmdir']) fsp[name] = guard(name, (target) => resolveInside(target));
syncBuiltinESMExports();
