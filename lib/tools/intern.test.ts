import { describe, expect, it } from 'vitest';
import { hashDeclaration } from './canonical-json';
import { internDeclaration, isInterned } from './intern';
import type { ToolDeclaration } from './types';

const declaration = (): ToolDeclaration => ({
  name: 'read_file',
  description: 'Reads a file.',
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string' }, encoding: { type: 'string', enum: ['utf8', 'base64'] } },
    required: ['path'],
  },
});

describe('internDeclaration', () => {
  it('gives one shared copy for every declaration with the same JSON text', () => {
    const first = internDeclaration(declaration());
    const second = internDeclaration(JSON.parse(JSON.stringify(declaration())));
    expect(second).toBe(first);
    expect(JSON.stringify(first)).toBe(JSON.stringify(declaration()));
    expect(isInterned(first)).toBe(true);
    expect(isInterned(declaration())).toBe(false);
    expect(internDeclaration(first)).toBe(first);
  });

  it('keeps declarations whose keys come in another order apart, each in its own order', () => {
    const swapped = declaration();
    swapped.inputSchema = {
      type: 'object',
      properties: { encoding: { type: 'string', enum: ['utf8', 'base64'] }, path: { type: 'string' } },
      required: ['path'],
    };
    const a = internDeclaration(declaration());
    const b = internDeclaration(swapped);
    expect(b).not.toBe(a);
    expect(Object.keys((b.inputSchema as { properties: object }).properties)).toEqual(['encoding', 'path']);
    expect(Object.keys((a.inputSchema as { properties: object }).properties)).toEqual(['path', 'encoding']);
  });

  it('freezes the shared copy all the way down, so no caller can change it for the others', () => {
    const shared = internDeclaration(declaration());
    const schema = shared.inputSchema as { properties: { path: { type: string } }; required: string[] };
    expect(() => {
      schema.properties.path.type = 'number';
    }).toThrow(TypeError);
    expect(() => schema.required.push('encoding')).toThrow(TypeError);
    expect(schema.properties.path.type).toBe('string');
  });

  it('returns a declaration that is not JSON as it is', () => {
    const looped = declaration() as ToolDeclaration & { self?: unknown };
    looped.self = looped;
    expect(internDeclaration(looped)).toBe(looped);
    expect(isInterned(looped)).toBe(false);
  });
});

describe('hashDeclaration with interned declarations', () => {
  it('hashes the shared copy as its original, and a changed original anew', () => {
    const original = declaration();
    const shared = internDeclaration(original);
    const hash = hashDeclaration(original);
    expect(hashDeclaration(shared)).toBe(hash);
    expect(hashDeclaration(shared)).toBe(hash);
    // Only shared copies are remembered: an ordinary object may change between calls.
    original.description = 'Reads a file, changed.';
    expect(hashDeclaration(original)).not.toBe(hash);
    expect(hashDeclaration(shared)).toBe(hash);
  });
});
