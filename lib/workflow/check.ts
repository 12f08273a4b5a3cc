/**
 * The one check every write of a document passes (create, save, fork, restore, import): the
 * document must export to a file its own import accepts. It exports the document and validates
 * the result with the import's own rules (the v1 schema, then ids, ports, one edge per input,
 * cycles, hashes), so the two can never disagree, and reports each problem at its place in the
 * document rather than in the export.
 */
import { decodePointerSegment, joinPointer, pointerSegment, type Issue } from '../result';
import { internDeclaration } from '../tools/intern';
import { createLookupTable } from '../tools/json-value';
import { exportWorkflow } from './export';
import { validateExport } from './import';
import type { WorkflowDocument, WorkflowExportV1 } from './types';

/** Export field → document field, where they are spelled differently. */
const NODE_FIELDS = createLookupTable({
  tool_name: 'tool',
  unknown_args: 'unknownArgs',
  tool_hash: 'toolHash',
  problems: 'notes',
});
const EDGE_FIELDS = createLookupTable({ source_output: 'sourceOutput', target_input: 'targetInput' });
const TOOL_FIELDS = createLookupTable({ input_schema: 'inputSchema', output_schema: 'outputSchema' });

const rest = (segments: string[], from: number) =>
  segments.slice(from).length ? '/' + segments.slice(from).join('/') : '';

/** Where an issue found in the export of `doc` sits in `doc` itself. */
function getDocumentPath(path: string, doc: WorkflowDocument, exported: WorkflowExportV1): string {
  const segments = path.split('/').slice(1);
  const [root, index, field] = segments.map(decodePointerSegment);
  const i = Number(index);
  switch (root) {
    case undefined:
      return '';
    case 'task':
      return '/task';
    case 'system_parameters':
      return '/systemParams' + rest(segments, 1);
    case 'nodes': {
      const node = doc.nodes[i];
      const at = joinPointer('/nodes', index ?? '');
      if (!node || field === undefined) return index === undefined ? '/nodes' : at;
      const placeholder = node.placeholderParams !== undefined && exported.nodes[i]?.placeholder === true;
      switch (field) {
        case 'input_parameters': {
          if (placeholder) return joinPointer(at, 'placeholderParams') + rest(segments, 3);
          const param = exported.nodes[i].input_parameters[Number(segments[3])];
          return param ? joinPointer(at, 'args', param.name) : joinPointer(at, 'args');
        }
        case 'output_parameters':
          return placeholder
            ? joinPointer(at, 'placeholderOutputs') + rest(segments, 3)
            : joinPointer(at, 'tool');
        case 'missing_tool_args':
          return placeholder ? joinPointer(at, 'placeholderMissingArgs') + rest(segments, 3) : at;
        case 'tool_source':
          return joinPointer('/tools', node.tool, 'declaration', 'source') + rest(segments, 3);
        case 'step_index':
        case 'placeholder':
          return at;
        default:
          return joinPointer(at, NODE_FIELDS[field] ?? field) + rest(segments, 3);
      }
    }
    case 'edges': {
      const at = joinPointer('/edges', index ?? '');
      if (field === undefined) return index === undefined ? '/edges' : at;
      return joinPointer(at, EDGE_FIELDS[field] ?? field) + rest(segments, 3);
    }
    case 'tools': {
      const tool = exported.tools[i];
      if (!tool) return '/tools';
      const at = joinPointer('/tools', tool.name);
      if (field === undefined || field === 'name') return at;
      if (field === 'hash') return joinPointer(at, 'hash');
      const member = TOOL_FIELDS[field] ?? field;
      return joinPointer(at, 'declaration', member) + rest(segments, 3);
    }
    default:
      return '/' + pointerSegment(root);
  }
}

/**
 * Every reason the document would not export to a file its own import accepts, each with the
 * JSON path of the place in the document; empty when it is sound. Expects a document of the
 * stored shape (the request schema checks that first).
 */
export function getDocumentIssues(doc: WorkflowDocument): Issue[] {
  const exported = exportWorkflow(withInternedTools(doc), { id: 'check', name: 'check' });
  return validateExport(exported).map((issue) => ({
    ...issue,
    path: getDocumentPath(issue.path, doc, exported),
  }));
}

/**
 * `doc` with each tool's declaration replaced by its shared copy (lib/tools/intern.ts): the same
 * content, so the same export, but a declaration the process has seen before comes with its
 * parameter plan and compiled value checks already worked out.
 */
export function withInternedTools(doc: WorkflowDocument): WorkflowDocument {
  // fromEntries defines own members, so a tool named "__proto__" stays a tool.
  const tools = Object.fromEntries(
    Object.entries(doc.tools).map(([name, snapshot]) => [
      name,
      { ...snapshot, declaration: internDeclaration(snapshot.declaration) },
    ]),
  );
  return { ...doc, tools };
}
