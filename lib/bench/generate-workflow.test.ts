import { describe, expect, it } from 'vitest';
import { connect } from '../workflow/commands';
import { generateWorkflow } from './generate-workflow';

describe('generateWorkflow', () => {
  it('makes 500 nodes and 700 edges', () => {
    const doc = generateWorkflow(500);
    expect(doc.nodes).toHaveLength(500);
    expect(doc.edges).toHaveLength(700);
  });

  it('makes only edges the editor itself would accept', () => {
    const doc = generateWorkflow(120);
    let rebuilt = { ...doc, edges: [] as typeof doc.edges };
    for (const e of doc.edges) {
      const result = connect(rebuilt, e);
      if (!result.ok) throw new Error(result.error[0].message);
      rebuilt = result.value;
    }
    expect(rebuilt.edges).toHaveLength(doc.edges.length);
  });

  it('is the same graph every time for a size', () => {
    expect(generateWorkflow(100)).toEqual(generateWorkflow(100));
  });
});
