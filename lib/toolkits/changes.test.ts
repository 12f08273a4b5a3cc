import { describe, expect, it } from 'vitest';
import type { ToolDeclaration } from '../tools/types';
import { getToolkitChanges } from './changes';

const echo: ToolDeclaration = {
  name: 'echo',
  description: 'Echo a message',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
};

describe('getToolkitChanges', () => {
  it('is empty for the same tools', () => {
    expect(getToolkitChanges([echo], [{ ...echo }])).toEqual({ added: [], removed: [], changed: [] });
  });

  it('lists a removed tool', () => {
    expect(getToolkitChanges([echo], []).removed).toEqual(['echo']);
  });

  it('lists an added tool and a changed one with its parameter diff', () => {
    const louder = {
      ...echo,
      inputSchema: {
        ...echo.inputSchema,
        properties: { message: { type: 'string' }, volume: { type: 'integer' } },
      },
    };
    const changes = getToolkitChanges([echo], [louder, { ...echo, name: 'shout' }]);
    expect(changes.added).toEqual(['shout']);
    expect(changes.changed).toMatchObject([
      { name: 'echo', diff: { added: [{ name: 'volume', type: 'int' }] } },
    ]);
  });
});
