/**
 * Items of a list read from the names the text writes after the noun the items are called
 * ("entities Alice and Bob"), and a relation the text says whole ("relate Alice to Bob as
 * 'knows'", "Alice knows Bob"). A field the text does not give stays missing.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOLKITS } from '../../toolkits/builtin';
import { planOffline } from './plan';

/** The memory sample alone, as the home page's picker offers it. */
const tools = BUILTIN_TOOLKITS.filter((kit) => kit.key === 'memory').flatMap((kit) => kit.tools);

function plan(task: string) {
  const { calls, notes } = planOffline({ task, tools });
  return { steps: calls.map((c) => [c.tool, c.args]), notes };
}

const ALICE_BOB = [
  { name: 'Alice', observations: [] },
  { name: 'Bob', observations: [] },
];

describe('list items named in the text', () => {
  it('plans the memory example with the names, the relation, and entityType left missing', () => {
    const { steps, notes } = plan(
      "Create entities Alice and Bob, relate Alice to Bob as 'knows', then read the graph",
    );
    expect(JSON.stringify(steps)).toBe(
      JSON.stringify([
        ['create_entities', { entities: ALICE_BOB }],
        ['create_relations', { relations: [{ from: 'Alice', to: 'Bob', relationType: 'knows' }] }],
        ['read_graph', {}],
      ]),
    );
    expect(notes).toContain(
      'The task does not say the entityType of "Alice", "Bob" in entities; fill it in.',
    );
    expect(notes.join('\n')).not.toMatch(/"knows" matched no parameter/);
  });

  it('reads lists joined by commas, "and", 和 and 、, quoted or not', () => {
    const three = [...ALICE_BOB, { name: 'Carol', observations: [] }];
    for (const task of [
      'Create entities Alice, Bob and Carol',
      "Create entities 'Alice', 'Bob' and 'Carol'",
      '创建实体 Alice、Bob 和 Carol',
    ])
      expect(plan(task).steps, task).toEqual([['create_entities', { entities: three }]]);
  });

  it('takes a quoted name whole, spaces and lower case included', () => {
    expect(plan("Create entities 'Project Apollo' and 'bob'").steps).toEqual([
      [
        'create_entities',
        {
          entities: [
            { name: 'Project Apollo', observations: [] },
            { name: 'bob', observations: [] },
          ],
        },
      ],
    ]);
  });

  it('fills a list of names after the thing the tool acts on', () => {
    expect(plan('Open the nodes Alice and Bob').steps).toEqual([['open_nodes', { names: ['Alice', 'Bob'] }]]);
  });

  it('reads "A knows B" and a quoted relation between two names', () => {
    expect(plan('Create a relation: Alice knows Bob').steps).toEqual([
      ['create_relations', { relations: [{ from: 'Alice', to: 'Bob', relationType: 'knows' }] }],
    ]);
    expect(plan("Create the relation Alice 'works with' Bob").steps).toEqual([
      ['create_relations', { relations: [{ from: 'Alice', to: 'Bob', relationType: 'works with' }] }],
    ]);
  });

  it('sets nothing where the text names no item or leaves out part of a relation', () => {
    expect(plan('Create entities for the new team members').steps).toEqual([['create_entities', {}]]);
    expect(plan('Relate Alice to Bob').steps).toEqual([['create_relations', {}]]);
    expect(plan('Create an entity for the project').steps).toEqual([['create_entities', {}]]);
    expect(plan('Create entities 2 and 3').steps).toEqual([['create_entities', {}]]);
  });

  it('reads the thing acted on before a generic verb: adding items is creating them', () => {
    const created = JSON.stringify([['create_entities', { entities: ALICE_BOB }]]);
    expect(JSON.stringify(plan("Add entities 'Alice' and 'Bob' to the knowledge graph").steps)).toBe(created);
    expect(JSON.stringify(plan("添加实体 'Alice' 和 'Bob'").steps)).toBe(created);
    // Adding observations stays add_observations: the clause gives no items another tool holds.
    expect(plan("Add the observation 'likes tea' to 'Alice'").steps[0][0]).toBe('add_observations');
  });

  it('asks for the relations tool when the text says a relation whole', () => {
    expect(JSON.stringify(plan('Record that Alice knows Bob').steps)).toBe(
      JSON.stringify([
        ['create_relations', { relations: [{ from: 'Alice', to: 'Bob', relationType: 'knows' }] }],
      ]),
    );
    expect(JSON.stringify(plan("Link Carol to Dave as 'manages'").steps)).toBe(
      JSON.stringify([
        ['create_relations', { relations: [{ from: 'Carol', to: 'Dave', relationType: 'manages' }] }],
      ]),
    );
    // Over every built-in toolkit too (the spreadsheet and git tools have no place for a relation).
    const all = BUILTIN_TOOLKITS.flatMap((kit) => kit.tools);
    expect(planOffline({ task: 'Record that Alice knows Bob', tools: all }).calls[0].tool).toBe(
      'create_relations',
    );
  });
});
