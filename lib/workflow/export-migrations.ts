/**
 * Older versions of the workflow export brought up to the current one, keeping a way back: an
 * issue found in the migrated file is reported at the path it has in the file as given.
 */
import { decodePointerSegment, err, ok, pointerSegment, type Result } from '../result';
import { isJsonObject } from '../tools/json-schema';
import { createLookupTable, createRecord } from '../tools/json-value';
import { EXPORT_FORMAT, EXPORT_VERSION } from './export';

type Json = Record<string, unknown>;

/** A migrated file plus how to point back at the file as given. */
export interface Migrated {
  json: unknown;
  /** Maps a JSON path in the migrated (v1) file to the same place in the original. */
  toOriginalPath: (path: string) => string;
}

/** Version 0 keys (camelCase) by their v1 name; keys not listed are spelled the same. */
const V0_ROOT = createLookupTable({ nodes: 'steps', system_parameters: 'systemParameters' });
const V0_NODE = createLookupTable({
  tool_name: 'toolName',
  tool_source: 'toolSource',
  input_parameters: 'inputParameters',
  missing_tool_args: 'missingToolArgs',
  unknown_args: 'unknownArgs',
  output_parameters: 'outputParameters',
  tool_hash: 'toolHash',
});
const V0_EDGE = createLookupTable({ source_output: 'sourceOutput', target_input: 'targetInput' });
const V0_TOOL = createLookupTable({ input_schema: 'inputSchema', output_schema: 'outputSchema' });
type RenameTable = Readonly<Record<string, string | undefined>>;

/** An object with its version-0 keys renamed, and which key of the file each member came from. */
interface Renamed {
  value: unknown;
  /** v1 key → the key the file used for it (a v0 name, or the v1 name when the file had that). */
  from: Map<string, string>;
}

function renameFrom(value: unknown, v1ToV0: RenameTable): Renamed {
  const from = new Map<string, string>();
  if (!isJsonObject(value)) return { value, from };
  const out: Json = createRecord();
  const v0ToV1 = new Map(Object.entries(v1ToV0).map(([v1, v0]) => [v0 as string, v1]));
  for (const [key, item] of Object.entries(value)) {
    const name = v0ToV1.get(key) ?? key;
    // A record without a prototype: "__proto__" stays a member (and is reported as unknown).
    out[name] = item;
    from.set(name, key);
  }
  return { value: out, from };
}

/**
 * The key of the file a v1 path segment stands for: the one the member came from, or, for a
 * member the file lacks, the version-0 name it should have (a field may be named "constructor":
 * the tables have no prototype).
 */
function toOriginalSegment(
  segment: string,
  from: Map<string, string> | undefined,
  v1ToV0: RenameTable,
): string {
  const name = decodePointerSegment(segment);
  const original = from?.get(name) ?? v1ToV0[name] ?? name;
  return original === name ? segment : pointerSegment(original);
}

/**
 * Version 0 (the prototype's format): camelCase keys, the node list under `steps`, no
 * `step_index` (a node's position in the list was its index) and `problems` optional. A file
 * that says version 0 but already uses some v1 key names is read too, and its issue paths keep
 * the names it used.
 */
function migrateV0(json: Json): Migrated {
  const renamedRoot = renameFrom(json, V0_ROOT);
  const root = renamedRoot.value as Json;
  root.version = 1;
  // For each collection, which key of the file each member of its i-th item came from.
  const itemKeys: Record<string, Map<string, string>[]> = { nodes: [], edges: [], tools: [] };
  if (Array.isArray(root.nodes)) {
    root.nodes = root.nodes.map((node, i) => {
      if (!isJsonObject(node)) return node;
      const renamed = renameFrom(node, V0_NODE);
      itemKeys.nodes[i] = renamed.from;
      const fields = renamed.value as Json;
      // Keep the v1 key order so a migrated file exports the way it validates.
      const { id, ...rest } = fields;
      return { id, step_index: i + 1, ...rest, problems: fields.problems ?? [] };
    });
  }
  const renameItems = (collection: 'edges' | 'tools', v1ToV0: RenameTable) => {
    const items = root[collection];
    if (!Array.isArray(items)) return;
    root[collection] = items.map((item, i) => {
      const renamed = renameFrom(item, v1ToV0);
      itemKeys[collection][i] = renamed.from;
      return renamed.value;
    });
  };
  renameItems('edges', V0_EDGE);
  renameItems('tools', V0_TOOL);
  const byCollection = new Map<string, RenameTable>([
    ['nodes', V0_NODE],
    ['edges', V0_EDGE],
    ['tools', V0_TOOL],
  ]);
  return {
    json: root,
    toOriginalPath: (path) => {
      const segments = path.split('/');
      // ['', root key, index, member key, ...]
      const collection = segments[1] === undefined ? undefined : decodePointerSegment(segments[1]);
      if (collection === undefined) return path;
      segments[1] = toOriginalSegment(segments[1], renamedRoot.from, V0_ROOT);
      const v1ToV0 = byCollection.get(collection);
      if (segments[3] === undefined || !v1ToV0) return segments.join('/');
      const from = /^(0|[1-9]\d*)$/.test(segments[2]) ? itemKeys[collection][Number(segments[2])] : undefined;
      // The migration adds step_index; a problem with it is a problem with the node itself.
      if (collection === 'nodes' && segments[3] === 'step_index' && !from?.has('step_index')) {
        return segments.slice(0, 3).join('/');
      }
      segments[3] = toOriginalSegment(segments[3], from, v1ToV0);
      return segments.join('/');
    },
  };
}

const MIGRATIONS: Record<number, (json: Json) => Migrated> = { 0: migrateV0 };

/**
 * Bring an export of any known version up to v1. Fails when the file is not a Toolflow export,
 * or its version is missing or newer than this code.
 */
export function migrateExport(json: unknown): Result<Migrated> {
  if (!isJsonObject(json)) {
    return err([
      {
        path: '',
        code: 'not_workflow',
        message: 'A workflow export must be a JSON object; this file is not one.',
      },
    ]);
  }
  if (json.format !== EXPORT_FORMAT) {
    return err([
      {
        path: '/format',
        code: 'not_workflow',
        message: `"format" must be "${EXPORT_FORMAT}" (found ${JSON.stringify(json.format) ?? 'nothing'}); this file is not a Toolflow workflow export.`,
      },
    ]);
  }
  const version = json.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
    return err([
      {
        path: '/version',
        code: 'bad_version',
        message: `"version" must be a whole number (this Toolflow reads 0 to ${EXPORT_VERSION}).`,
      },
    ]);
  }
  if (version > EXPORT_VERSION) {
    return err([
      {
        path: '/version',
        code: 'newer_version',
        message: `This file is version ${version}, written by a newer Toolflow; this one reads up to version ${EXPORT_VERSION}. Upgrade Toolflow to import it.`,
      },
    ]);
  }
  let current: Migrated = { json, toOriginalPath: (p) => p };
  for (let v = version; v < EXPORT_VERSION; v++) {
    const step = MIGRATIONS[v](current.json as Json);
    const outer = current.toOriginalPath;
    current = { json: step.json, toOriginalPath: (p) => outer(step.toOriginalPath(p)) };
  }
  return ok(current);
}
