import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createToolAliases,
  GEMINI_TOOL_NAME_PATTERN,
  getToolNamePattern,
  OPENAI_TOOL_NAME_PATTERN,
} from './aliases';

const named = (...names: string[]) => names.map((name) => ({ name }));

describe('createToolAliases', () => {
  describe('keeps allowed names', () => {
    it('maps a name the provider accepts to itself', () => {
      const aliases = createToolAliases(named('get_weather', 'send-mail'));
      expect(aliases.toAlias('get_weather')).toBe('get_weather');
      expect(aliases.fromAlias('send-mail')).toBe('send-mail');
      expect(aliases.aliases.size).toBe(0);
    });
  });

  describe('aliases forbidden names', () => {
    it('replaces dots, slashes and spaces with underscores', () => {
      const aliases = createToolAliases(named('github.create_issue', 'fs/read file'));
      expect(aliases.toAlias('github.create_issue')).toBe('github_create_issue');
      expect(aliases.toAlias('fs/read file')).toBe('fs_read_file');
      expect(aliases.fromAlias('github_create_issue')).toBe('github.create_issue');
      expect(aliases.fromAlias('fs_read_file')).toBe('fs/read file');
    });

    it('strips accents and replaces other unicode', () => {
      const aliases = createToolAliases(named('café.menu', '天气'));
      expect(aliases.toAlias('café.menu')).toBe('cafe_menu');
      expect(aliases.toAlias('天气')).toMatch(/^tool(_[0-9a-f]{8})?$/);
      expect(aliases.fromAlias(aliases.toAlias('天气'))).toBe('天气');
    });

    it('shortens names over 64 characters with a hash suffix', () => {
      const long = 'a'.repeat(80);
      const aliases = createToolAliases(named(long));
      const alias = aliases.toAlias(long);
      expect(alias).toMatch(/^a{55}_[0-9a-f]{8}$/);
      expect(alias).toHaveLength(64);
      expect(aliases.fromAlias(alias)).toBe(long);
    });

    it('never collides with an allowed name or another alias', () => {
      const aliases = createToolAliases(named('a.b', 'a_b', 'a/b', 'a b'));
      const sent = ['a.b', 'a_b', 'a/b', 'a b'].map((n) => aliases.toAlias(n));
      expect(new Set(sent).size).toBe(4);
      expect(aliases.toAlias('a_b')).toBe('a_b');
      for (const name of ['a.b', 'a_b', 'a/b', 'a b'])
        expect(aliases.fromAlias(aliases.toAlias(name))).toBe(name);
    });

    it('uses the pattern it is given (Gemini allows dots, needs a leading letter or underscore)', () => {
      const aliases = createToolAliases(named('github.create_issue', '3d_render'), {
        pattern: GEMINI_TOOL_NAME_PATTERN,
      });
      expect(aliases.toAlias('github.create_issue')).toBe('github.create_issue');
      expect(aliases.toAlias('3d_render')).toBe('_3d_render');
    });
  });

  describe('is deterministic and reversible', () => {
    it('gives the same aliases whatever the tool order', () => {
      const names = ['x.y', 'x_y', 'x/y', 'z.z', 'ok'];
      const forward = createToolAliases(named(...names));
      const backward = createToolAliases(named(...[...names].reverse()));
      expect([...forward.aliases.entries()].sort()).toEqual([...backward.aliases.entries()].sort());
    });

    it('round-trips any set of names under each provider pattern', () => {
      for (const pattern of [OPENAI_TOOL_NAME_PATTERN, GEMINI_TOOL_NAME_PATTERN]) {
        fc.assert(
          fc.property(
            fc.uniqueArray(
              fc.oneof(
                fc.string({ minLength: 1, maxLength: 90 }),
                fc.constantFrom('a.b', 'a_b', 'a-b', 'tool', '_', '-'),
              ),
              { maxLength: 12 },
            ),
            (names) => {
              const aliases = createToolAliases(named(...names), { pattern });
              const sent = names.map((n) => aliases.toAlias(n));
              expect(new Set(sent).size).toBe(names.length);
              for (const [i, name] of names.entries()) {
                expect(sent[i]).toMatch(pattern);
                expect(aliases.fromAlias(sent[i])).toBe(name);
              }
            },
          ),
          { numRuns: 300 },
        );
      }
    });

    it('returns undefined for a provider name no tool has', () => {
      expect(createToolAliases(named('a.b')).fromAlias('nope')).toBeUndefined();
      expect(createToolAliases(named('a.b')).fromAlias('a.b')).toBeUndefined();
    });
  });
});

describe('getToolNamePattern', () => {
  it('gives the OpenAI rule to OpenAI and Anthropic, Gemini its own, none to MCP and prompt', () => {
    expect(getToolNamePattern('openai-chat')).toBe(OPENAI_TOOL_NAME_PATTERN);
    expect(getToolNamePattern('openai-responses')).toBe(OPENAI_TOOL_NAME_PATTERN);
    expect(getToolNamePattern('anthropic')).toBe(OPENAI_TOOL_NAME_PATTERN);
    expect(getToolNamePattern('gemini')).toBe(GEMINI_TOOL_NAME_PATTERN);
    expect(getToolNamePattern('mcp')).toBeUndefined();
    expect(getToolNamePattern('prompt')).toBeUndefined();
  });
});
