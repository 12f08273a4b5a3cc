import { describe, expect, it } from 'vitest';
import { DEFAULT_SYSTEM_PARAMS } from '../../lib/tools/types';
import { exportWorkflow } from '../../lib/workflow/export';
import { getConnectedInputs } from '../../lib/workflow/graph';
import { buildNodeParameters } from '../../lib/workflow/params';
import { createDocumentFromPlan } from '../../lib/workflow/plan';
import { benchTools } from './_declarations';
import { buildReferenceParameters } from './_reference';
import { createBenchPlan } from './workflow';

describe('createBenchPlan', () => {
  const built = createDocumentFromPlan(createBenchPlan(600), benchTools);
  if (!built.ok) throw new Error(JSON.stringify(built.error));
  const doc = built.value;

  it('builds with every fourth step wired and a realistic mix of problems', () => {
    expect(doc.nodes).toHaveLength(600);
    expect(doc.edges).toHaveLength(150);
    const codes = new Set(
      exportWorkflow(doc, { id: 'w', name: 'w' }).nodes.flatMap((n) => n.problems.map((p) => p.code)),
    );
    expect([...codes].sort()).toEqual(['invalid_value', 'unknown_arg']);
  });

  it('gives the same parameters from the reference implementation as from the builder', () => {
    const connected = getConnectedInputs(doc.edges);
    for (const node of doc.nodes) {
      const decl = doc.tools[node.tool].declaration;
      const inputs = connected.get(node.id) ?? new Set<string>();
      const real = buildNodeParameters(decl, node.args, { connectedInputs: inputs });
      const ref = buildReferenceParameters(decl, node.args, inputs, DEFAULT_SYSTEM_PARAMS);
      const comparable = {
        input_parameters: real.input_parameters.map(({ name, type, value, origin, required }) => ({
          name,
          type,
          value,
          origin,
          required,
        })),
        missing_tool_args: real.missing_tool_args,
        unknown_args: real.unknown_args,
      };
      // As JSON, in order (the builder's values have no prototype, the reference's do).
      expect(JSON.stringify(comparable)).toBe(JSON.stringify(ref));
    }
  });
});
