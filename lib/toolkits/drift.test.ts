import { describe, expect, it } from 'vitest';
import type { ToolDeclaration } from '../tools/types';
import { describeDiff, getDeclarationDiff, isEmptyDiff } from './drift';

const convertV1: ToolDeclaration = {
  name: 'convert',
  description: 'Convert a value',
  inputSchema: {
    type: 'object',
    required: ['input'],
    properties: {
      input: { type: 'string' },
      scale: { type: 'integer' },
      legacy: { type: 'boolean', default: false },
      executor: { type: 'object' },
    },
  },
  outputSchema: { type: 'object', properties: { value: { type: 'number' }, log: { type: 'string' } } },
};

const convertV2: ToolDeclaration = {
  name: 'convert',
  description: 'Convert a value',
  inputSchema: {
    type: 'object',
    required: ['input', 'unit'],
    properties: {
      input: { type: 'string' },
      scale: { type: 'number', default: 1 },
      unit: { type: 'string' },
      executor: { type: 'string' },
    },
  },
  outputSchema: { type: 'object', properties: { value: { type: 'number' } } },
};

const plot: ToolDeclaration = {
  name: 'plot',
  description: 'Plot',
  inputSchema: { type: 'object', properties: { data: { type: 'number' }, title: { type: 'string' } } },
};

describe('getDeclarationDiff', () => {
  it('reports added, removed, retyped and required-changed parameters in declaration order', () => {
    const diff = getDeclarationDiff(convertV1, convertV2);
    expect(diff.added).toEqual([{ name: 'unit', type: 'str', required: true }]);
    expect(diff.removed).toEqual([{ name: 'legacy', type: 'bool' }]);
    expect(diff.retyped).toEqual([{ name: 'scale', from: 'int', to: 'float' }]);
    expect(diff.requiredChanged).toEqual([]);
    expect(diff.defaultChanged).toEqual([{ name: 'scale', to: 1 }]);
    expect(diff.outputsRemoved).toEqual(['log']);
    expect(diff.outputsAdded).toEqual([]);
  });

  it('ignores system parameters, which nodes never show', () => {
    const diff = getDeclarationDiff(convertV1, convertV2);
    expect([...diff.added, ...diff.removed, ...diff.retyped].map((p) => p.name)).not.toContain('executor');
  });

  it('reports a parameter that became required', () => {
    const stricter = { ...plot, inputSchema: { ...plot.inputSchema, required: ['data'] } };
    expect(getDeclarationDiff(plot, stricter).requiredChanged).toEqual([{ name: 'data', required: true }]);
    expect(getDeclarationDiff(stricter, plot).requiredChanged).toEqual([{ name: 'data', required: false }]);
  });

  it('names a change that touches no parameter', () => {
    const reworded = { ...plot, description: 'Plot a series' };
    const diff = getDeclarationDiff(plot, reworded);
    expect(diff.otherChanges).toEqual(['description']);
    const constrained = {
      ...plot,
      inputSchema: {
        type: 'object',
        properties: { data: { type: 'number', minimum: 0 }, title: { type: 'string' } },
      },
    };
    expect(getDeclarationDiff(plot, constrained).otherChanges).toEqual(['input schema']);
  });

  it('is empty when only key order differs', () => {
    const reordered: ToolDeclaration = {
      description: plot.description,
      inputSchema: { properties: plot.inputSchema.properties, type: 'object' },
      name: 'plot',
    };
    expect(isEmptyDiff(getDeclarationDiff(plot, reordered))).toBe(true);
  });

  it('describes each change in one line', () => {
    expect(describeDiff(getDeclarationDiff(convertV1, convertV2))).toEqual([
      'added required parameter "unit" (str)',
      'removed parameter "legacy"',
      'parameter "scale" changed type int → float',
      'parameter "scale" default none → 1',
      'removed output "log"',
    ]);
  });
});
