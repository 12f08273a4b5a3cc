import { describe, expect, it } from 'vitest';
import { hashDeclaration } from '../tools/canonical-json';
import { isInterned } from '../tools/intern';
import type { ToolDeclaration } from '../tools/types';
import { getDocumentIssues, withInternedTools } from './check';
import { addNode } from './commands';
import type { WorkflowDocument } from './types';

const tool = (name: string): ToolDeclaration => ({
  name,
  description: `The ${name} tool.`,
  inputSchema: { type: 'object', properties: { path: { type: 'string' }, count: { type: 'integer' } } },
});

function documentWith(names: string[]): WorkflowDocument {
  let doc: WorkflowDocument = { task: 't', nodes: [], edges: [], tools: {} };
  names.forEach((name, i) => {
    doc = addNode(doc, tool(name), { x: i * 200, y: 0 }, { path: '/data/a.txt', count: 2 });
  });
  return doc;
}

describe('withInternedTools', () => {
  it('gives the same document with shared declarations, each tool kept, "__proto__" included', () => {
    const doc = JSON.parse(JSON.stringify(documentWith(['read', '__proto__']))) as WorkflowDocument;
    const interned = withInternedTools(doc);
    expect(Object.keys(interned.tools)).toEqual(['read', '__proto__']);
    expect(JSON.stringify(interned)).toBe(JSON.stringify(doc));
    for (const snapshot of Object.values(interned.tools)) expect(isInterned(snapshot.declaration)).toBe(true);
    expect(Object.values(doc.tools).some((s) => isInterned(s.declaration))).toBe(false);
  });

  it('leaves the check as it was: a changed declaration is still caught by its hash', () => {
    const doc = JSON.parse(JSON.stringify(documentWith(['read']))) as WorkflowDocument;
    expect(getDocumentIssues(doc)).toEqual([]);
    // The same request again (a fresh parse) meets the remembered copy and still passes.
    expect(getDocumentIssues(JSON.parse(JSON.stringify(doc)))).toEqual([]);
    const changed = JSON.parse(JSON.stringify(doc)) as WorkflowDocument;
    (changed.tools.read.declaration.inputSchema as { properties: Record<string, unknown> }).properties.count =
      {
        type: 'string',
      };
    const issues = getDocumentIssues(changed);
    expect(issues.map((i) => i.path)).toContain('/tools/read/hash');
    expect(hashDeclaration(changed.tools.read.declaration)).not.toBe(doc.tools.read.hash);
  });
});
