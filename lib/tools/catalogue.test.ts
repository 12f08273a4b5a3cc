import { getFixturePath } from '../../tests/fixtures/index';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderToolCatalogue } from './catalogue';
import { importDeclarations } from './import';
import type { ToolDeclaration } from './types';

const SEED_TOOLS = getFixturePath('seed-optimize-structure/tools.json');

function seedTools(): ToolDeclaration[] {
  const result = importDeclarations(JSON.parse(readFileSync(SEED_TOOLS, 'utf8')), {
    source: { kind: 'file', toolkit: 'dpa' },
  });
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return result.value.tools;
}

const addAtoms: ToolDeclaration = {
  name: 'add_atoms',
  title: 'Add atoms',
  description: 'Add atoms to a structure.\nReturns the new file.',
  source: { kind: 'mcp-http', toolkit: 'chem', server: 'https://chem.example/mcp' },
  inputSchema: {
    type: 'object',
    properties: {
      structure: { $ref: '#/$defs/path', description: 'Structure   file\n(CIF or POSCAR)' },
      atoms: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          properties: {
            symbol: { type: 'string', enum: ['H', 'He'] },
            position: { type: 'array', items: { type: 'number' }, minItems: 3, maxItems: 3 },
          },
          required: ['symbol'],
        },
      },
      mode: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, description: 'Mode' },
      tree: { $ref: '#/$defs/node' },
      options: {
        type: 'object',
        properties: {
          deep: {
            type: 'object',
            properties: { deeper: { type: 'object', properties: { x: { type: 'string' } } } },
          },
        },
      },
      count: { type: 'integer', minimum: 0, maximum: 10, default: 2 },
      ratio: { type: 'number', exclusiveMinimum: 0 },
      anything: {},
    },
    required: ['structure', 'atoms'],
    $defs: {
      path: { type: 'string', format: 'uri' },
      node: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          children: { type: 'array', items: { $ref: '#/$defs/node' } },
        },
      },
    },
  },
  outputSchema: { type: 'object', properties: { structure: { type: 'string' }, energy: { type: 'number' } } },
};

describe('renderToolCatalogue', () => {
  describe('lists everything the model needs', () => {
    it('renders the seed tool with every parameter, type, required flag, default and description', () => {
      expect(renderToolCatalogue(seedTools())).toBe(
        [
          '# Available tools (1)',
          '',
          '## optimize_structure',
          'Description: Perform geometry optimization of a crystal structure with a DPA model',
          'Source: file, toolkit "dpa"',
          'Parameters:',
          '- input_structure (string, required): Input structure file URL or path',
          '- model_path (string, required): Path to the DPA model file',
          '- head (string, optional, default "Omat24"): Model head type',
          '- force_tolerance (number, optional, default 0.01): Force convergence tolerance',
          '- max_iterations (integer, optional, default 100): Maximum optimization iterations',
          '- relax_cell (boolean, optional, default false): Whether to relax cell parameters',
          '- executor (object, optional): Executor configuration',
          '- storage (object, optional): Storage configuration',
          '',
        ].join('\n'),
      );
    });

    it('describes refs, enums, constraints, nested objects, array items, recursion and outputs', () => {
      expect(renderToolCatalogue([addAtoms])).toBe(
        [
          '# Available tools (1)',
          '',
          '## add_atoms',
          'Title: Add atoms',
          'Description: Add atoms to a structure.',
          '  Returns the new file.',
          'Source: mcp-http, toolkit "chem", server "https://chem.example/mcp"',
          'Parameters:',
          '- structure (string, required, format uri): Structure file (CIF or POSCAR)',
          '- atoms (array of object, required, items ≥ 1)',
          '  each item:',
          '  - symbol (string, required, one of "H" | "He")',
          '  - position (array of number, optional, items = 3)',
          '- mode (string or null, optional, default null): Mode',
          '- tree (object, optional)',
          '  - name (string, optional)',
          '  - children (array of object, optional)',
          '    (recursive: items have the same fields as above)',
          '- options (object, optional)',
          '  - deep (object, optional)',
          '    - deeper (object, optional)',
          '      (nested fields not listed)',
          '- count (integer, optional, default 2, value 0–10)',
          '- ratio (number, optional, value > 0)',
          '- anything (any, optional)',
          'Returns: structure (string), energy (number)',
          '',
        ].join('\n'),
      );
    });
  });

  describe('options', () => {
    it('leaves out omitted parameters', () => {
      const text = renderToolCatalogue(seedTools(), { omitParams: ['executor', 'storage'] });
      expect(text).not.toMatch(/executor|storage/);
      expect(text).toContain('- relax_cell (boolean');
    });

    it('lists deeper fields when maxDepth allows', () => {
      expect(renderToolCatalogue([addAtoms], { maxDepth: 4 })).toContain('      - x (string, optional)');
    });
  });

  describe('edge cases', () => {
    it('says when a tool has no parameters or no description, and leaves out a source nobody recorded', () => {
      expect(renderToolCatalogue([{ name: 'noop', description: '', inputSchema: { type: 'object' } }])).toBe(
        '# Available tools (1)\n\n## noop\nDescription: (none given)\nParameters: none\n',
      );
    });

    it('names the toolkit (and server) a tool came from', () => {
      const text = renderToolCatalogue([
        {
          name: 'read',
          description: 'Read',
          inputSchema: { type: 'object' },
          source: { kind: 'mcp-stdio', toolkit: 'Files', server: 'filesystem' },
        },
      ]);
      expect(text).toContain('\nSource: mcp-stdio, toolkit "Files", server "filesystem"\n');
    });

    it('says what the values of an open map are', () => {
      const text = renderToolCatalogue([
        {
          name: 'tag',
          description: 't',
          inputSchema: {
            type: 'object',
            properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } },
          },
        },
      ]);
      expect(text).toContain('- labels (object (map of string), optional)\n');
    });

    it('lists allOf-composed properties in declaration order', () => {
      const text = renderToolCatalogue([
        {
          name: 'composed',
          description: 'c',
          inputSchema: {
            type: 'object',
            allOf: [
              { properties: { a: { type: 'string' } }, required: ['a'] },
              { properties: { b: { type: 'integer' } } },
            ],
          },
        },
      ]);
      expect(text).toContain('- a (string, required)\n- b (integer, optional)\n');
    });

    it('names a recursive "any JSON value" definition instead of overflowing the stack', () => {
      const text = renderToolCatalogue([
        {
          name: 'x',
          description: '',
          inputSchema: {
            type: 'object',
            properties: { value: { $ref: '#/$defs/Json' } },
            $defs: {
              Json: { anyOf: [{ type: 'string' }, { type: 'array', items: { $ref: '#/$defs/Json' } }] },
            },
          },
        },
      ]);
      expect(text).toContain('- value (string or array of Json (recursive), optional)\n');
    });

    it('names a property whose items refer back to the property itself (fuzz counterexample)', () => {
      const text = renderToolCatalogue([
        {
          name: 'x',
          description: '',
          inputSchema: {
            type: 'object',
            properties: { a: { type: 'array', items: { $ref: '#/properties/a' } } },
          },
        },
      ]);
      expect(text).toContain('- a (array of array of a (recursive), optional)\n');
    });

    it('names an output whose allOf refers back to it, and the root by what it is', () => {
      const text = renderToolCatalogue([
        {
          name: 'x',
          description: '',
          inputSchema: { type: 'object', properties: { p: { type: 'array', items: { $ref: '#' } } } },
          outputSchema: {
            type: 'object',
            properties: { a: { allOf: [{ $ref: '#/properties/a' }] } },
          },
        },
      ]);
      expect(text).toContain('- p (array of object, optional)\n');
      expect(text).toContain('Returns: a (a (recursive))\n');
    });

    it('cuts a very deeply nested type short instead of describing every level', () => {
      let schema: Record<string, unknown> = { type: 'string' };
      for (let i = 0; i < 5000; i++) schema = { type: 'array', items: schema };
      const text = renderToolCatalogue([
        { name: 'deep', description: '', inputSchema: { type: 'object', properties: { d: schema } } },
      ]);
      expect(text).toContain(`- d (${'array of '.repeat(9)}any, optional)\n`);
    });

    it('is deterministic and keeps the given tool order', () => {
      const tools = [addAtoms, ...seedTools()];
      const text = renderToolCatalogue(tools);
      expect(renderToolCatalogue(structuredClone(tools))).toBe(text);
      expect(text.indexOf('## add_atoms')).toBeLessThan(text.indexOf('## optimize_structure'));
      expect(text.startsWith('# Available tools (2)\n')).toBe(true);
    });
  });
});
