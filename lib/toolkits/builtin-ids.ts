/**
 * The built-in toolkits' keys and the ids they are stored under, apart from their declarations
 * (builtin.ts), so a page that only names a built-in toolkit loads a few bytes, not its tools.
 */

/** The keys of the built-in toolkits (lib/toolkits/builtin.ts). */
export type BuiltinToolkitKey = 'materials' | 'spreadsheet' | 'git' | 'memory' | 'files';

/** The id a built-in toolkit is stored under: the same in every database. */
export function getBuiltinToolkitIdOf(key: BuiltinToolkitKey): string {
  return `tk_builtin_${key}`;
}
