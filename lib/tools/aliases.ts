/**
 * Reversible tool-name aliases. MCP allows names such as `github.create_issue` or `fs/read`;
 * OpenAI and Anthropic accept only `^[a-zA-Z0-9_-]{1,64}$`, Gemini `^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$`.
 * A name the provider forbids is sent under a deterministic alias, and the model's tool calls
 * are mapped back with `fromAlias`.
 */
import { sha256Hex } from './sha256';
import type { RenderTarget, ToolDeclaration } from './types';

/** The name rule of OpenAI (Chat and Responses) and Anthropic function tools. */
export const OPENAI_TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
/** Gemini function names: start with a letter or underscore; letters, digits, `_ . -`; ≤ 64. */
export const GEMINI_TOOL_NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$/;

/** The name pattern a render target enforces, or undefined when it accepts any name. */
export function getToolNamePattern(target: RenderTarget): RegExp | undefined {
  switch (target) {
    case 'openai-chat':
    case 'openai-responses':
    case 'anthropic':
      return OPENAI_TOOL_NAME_PATTERN;
    case 'gemini':
      return GEMINI_TOOL_NAME_PATTERN;
    case 'mcp':
    case 'prompt':
      return undefined;
  }
}

/** A bijection between tool names and the names sent to a provider. */
export interface ToolAliases {
  /** The provider-safe name for a tool (the name itself when it is already allowed). */
  toAlias(name: string): string;
  /** The tool name behind a provider-side name, or undefined when no tool has that alias. */
  fromAlias(alias: string): string | undefined;
  /** Every name that needed an alias, name → alias. */
  aliases: Map<string, string>;
}

/** The longest alias any provider accepts. */
const MAX_LENGTH = 64;
const HASH_LENGTH = 8;

/** Replace characters outside the pattern's usual alphabet; collapse runs of `_`. */
function sanitise(name: string, pattern: RegExp): string {
  let out = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // strip accents: "café" → "cafe"
    .replace(/[^a-zA-Z0-9_-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_(?=.)/, '')
    .replace(/(?<=.)_$/, '');
  if (out === '' || out === '_') out = 'tool';
  // Some patterns (Gemini) require a leading letter or underscore.
  if (!pattern.test(out.slice(0, MAX_LENGTH)) && /^[^a-zA-Z_]/.test(out)) out = `_${out}`;
  return out;
}

function withHash(base: string, name: string, salt: number): string {
  const hash = sha256Hex(salt === 0 ? name : `${name}#${salt}`).slice(0, HASH_LENGTH);
  return `${base.slice(0, MAX_LENGTH - HASH_LENGTH - 1)}_${hash}`;
}

/**
 * Build aliases for `tools` under a provider's name `pattern` (default: OpenAI's). Names that
 * already match keep themselves; every other name gets a readable sanitised alias, with a hash
 * suffix when it was truncated or would collide. Deterministic: the same tool names give the
 * same aliases whatever their order.
 */
export function createToolAliases(
  tools: readonly Pick<ToolDeclaration, 'name'>[],
  { pattern = OPENAI_TOOL_NAME_PATTERN }: { pattern?: RegExp } = {},
): ToolAliases {
  const names = [...new Set(tools.map((t) => t.name))];
  const taken = new Set(names.filter((name) => pattern.test(name)));
  const aliases = new Map<string, string>();
  const reverse = new Map<string, string>();

  // Sorted, so the outcome does not depend on the order the tools were listed in.
  const needAlias = names.filter((name) => !pattern.test(name)).sort();
  for (const name of needAlias) {
    const base = sanitise(name, pattern);
    let alias = base.length <= MAX_LENGTH ? base : withHash(base, name, 0);
    for (let salt = base.length <= MAX_LENGTH ? 0 : 1; taken.has(alias) || !pattern.test(alias); salt++) {
      if (salt > 1000)
        throw new Error(`Cannot find an alias for tool name ${JSON.stringify(name)} under ${pattern}`);
      alias = withHash(base, name, salt);
    }
    taken.add(alias);
    aliases.set(name, alias);
    reverse.set(alias, name);
  }
  const known = new Set(names);
  return {
    toAlias: (name) => aliases.get(name) ?? name,
    fromAlias: (alias) => reverse.get(alias) ?? (known.has(alias) && !aliases.has(alias) ? alias : undefined),
    aliases,
  };
}
