/**
 * No absolute server path reaches a person's browser. What a run stores keeps what the tools and
 * servers said, word for word (for the operator); what the API serves passes through a redactor
 * made from the server's folders:
 *
 * - a sample's folder (`relative`): a path inside it is shown relative to it, as the person wrote
 *   it (`/srv/toolflow/.data/samples/3f…/files/notes/a.txt` → `notes/a.txt`), the folder itself as
 *   `.`;
 * - a folder that would reveal the server's layout (`hidden`: the data directory, the app's own
 *   directory, the home directory): a path inside it is replaced whole by `[server path]`.
 *
 * Paths are found in any text: plain, quoted, inside JSON text (escaped backslashes and slashes),
 * as `file://` URLs; Windows-like roots (`C:\…`, `\\server\share`) match either separator and any
 * letter case. A longer root wins over a shorter one it is inside. Pure.
 */

export interface ServerPathRules {
  /** Folders whose paths are shown relative to them (the runnable samples' folders). */
  relative: readonly string[];
  /** Folders whose paths are hidden whole. */
  hidden: readonly string[];
}

/** What a hidden path is replaced with. */
export const HIDDEN_PATH = '[server path]';

/** A separator as it may be written: `/`, `\`, or either escaped in JSON text (`\/`, `\\`). */
const SEP = String.raw`(?:\\?/|\\{1,2})`;
/** A character that may continue a file name. */
const NAME_CHAR = String.raw`[\w.~-]`;
/** The rest of a hidden path: anything up to a space, a quote or a bracket (not an escaped quote). */
const TAIL = String.raw`(?:[^\s'"\x60<>|,;:()\[\]{}\\]|\\(?!["']))*`;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const isWindowsLike = (root: string) => /^[A-Za-z]:[\\/]/.test(root) || /^\\\\[^\\]/.test(root);

interface Root {
  pattern: RegExp;
  kind: 'relative' | 'hidden';
  length: number;
}

/** A root's pattern; undefined for one too short to mean a folder of this server (`/`, `C:\`). */
function compileRoot(root: string, kind: Root['kind']): Root | undefined {
  const windows = isWindowsLike(root);
  const segments = root.split(/[\\/]+/);
  const named = segments.filter((s) => s !== '' && !/^[A-Za-z]:$/.test(s));
  if (named.length === 0) return undefined;
  // Trailing separators are not part of the folder's name.
  while (segments.length > 1 && segments.at(-1) === '') segments.pop();
  const body = segments.map(escape).join(SEP);
  const tail = kind === 'hidden' ? `(?:${SEP}${TAIL})?` : `(${SEP})?`;
  return {
    pattern: new RegExp(`(?<!${NAME_CHAR})${body}(?!${NAME_CHAR})${tail}`, windows ? 'gi' : 'g'),
    kind,
    length: root.length,
  };
}

/** Replaces the paths of the server's folders in text and in JSON values. */
export interface PathRedactor {
  text(text: string): string;
  /** A copy of a JSON value with every string (and object key) redacted. */
  json<T>(value: T): T;
}

/** A redactor for `rules`; reuse it for every value of one answer. */
export function createPathRedactor(rules: ServerPathRules): PathRedactor {
  const roots = [
    ...[...new Set(rules.relative)].map((r) => compileRoot(r, 'relative')),
    ...[...new Set(rules.hidden)].map((r) => compileRoot(r, 'hidden')),
  ]
    .filter((r): r is Root => r !== undefined)
    // Inner folders first: a sample's folder is inside the data directory.
    .sort((a, b) => b.length - a.length);

  const text = (input: string): string => {
    let out = input;
    for (const root of roots) {
      if (root.kind === 'hidden') {
        out = out.replace(root.pattern, HIDDEN_PATH);
        continue;
      }
      out = out.replace(root.pattern, (match: string, sep: string | undefined, at: number, whole: string) => {
        // `<folder>/notes/a.txt` → `notes/a.txt`; the folder itself (or `<folder>/` alone) → `.`.
        const next = whole[at + match.length];
        return sep !== undefined && next !== undefined && /[^\s'"\x60<>|,;)\]}]/.test(next) ? '' : '.';
      });
    }
    return out;
  };

  const json = <T>(value: T): T => {
    if (typeof value === 'string') return text(value) as T;
    if (Array.isArray(value)) return value.map(json) as T;
    if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
      const out: Record<string, unknown> = Object.create(Object.getPrototypeOf(value));
      for (const [key, member] of Object.entries(value)) {
        Object.defineProperty(out, text(key), {
          value: json(member),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out as T;
    }
    return value;
  };

  return roots.length === 0 ? { text: (t) => t, json: (v) => v } : { text, json };
}
