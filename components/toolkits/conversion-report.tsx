'use client';
import { useMemo, useState } from 'react';
import { convertTools, type RenderOptions } from '@/lib/tools/render';
import type { RenderTarget, ToolDeclaration } from '@/lib/tools/types';

/** The conversions a person may send a toolkit through, as `toolflow tools` offers them. */
const CONVERSIONS: { id: string; label: string; target: RenderTarget; options: RenderOptions }[] = [
  { id: 'openai-chat', label: 'OpenAI Chat Completions', target: 'openai-chat', options: {} },
  {
    id: 'openai-chat-strict',
    label: 'OpenAI Chat Completions, strict auto',
    target: 'openai-chat',
    options: { strict: 'auto' },
  },
  {
    id: 'openai-responses-strict',
    label: 'OpenAI Responses, strict always',
    target: 'openai-responses',
    options: { strict: 'always' },
  },
  { id: 'gemini', label: 'Gemini (parameters)', target: 'gemini', options: {} },
  {
    id: 'gemini-json-schema',
    label: 'Gemini (parametersJsonSchema)',
    target: 'gemini',
    options: { geminiSchema: 'json-schema' },
  },
  { id: 'anthropic', label: 'Anthropic', target: 'anthropic', options: {} },
  { id: 'mcp', label: 'MCP', target: 'mcp', options: {} },
  { id: 'prompt', label: 'Prompt catalogue', target: 'prompt', options: {} },
];

/**
 * What converting a toolkit's tools to a provider format changes, tool by tool: the same list
 * `toolflow tools` prints on stderr (loss: meaning changed; note: meaning kept).
 */
export function ConversionReport({ tools }: { tools: readonly ToolDeclaration[] }) {
  const [id, setId] = useState(CONVERSIONS[1].id);
  const conversion = CONVERSIONS.find((c) => c.id === id) ?? CONVERSIONS[0];
  const issues = useMemo(
    () => convertTools(tools, conversion.target, conversion.options).issues,
    [tools, conversion],
  );
  const losses = issues.filter((issue) => issue.severity === 'loss').length;
  return (
    <section className="tk-report" data-testid="toolkit-conversion-report">
      <label className="tk-report__pick">
        Convert to{' '}
        <select value={id} onChange={(e) => setId(e.target.value)} data-testid="toolkit-conversion-target">
          {CONVERSIONS.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      <p className="muted tk-report__summary" data-testid="toolkit-conversion-summary">
        {issues.length === 0
          ? 'Nothing changes.'
          : `${losses} change${losses === 1 ? '' : 's'} of meaning, ${issues.length - losses} note${issues.length - losses === 1 ? '' : 's'}.`}
      </p>
      {issues.length > 0 ? (
        <ul className="tk-report__list" data-testid="toolkit-conversion-issues">
          {issues.map((issue, i) => (
            <li key={i} className={`tk-report__issue tk-report__issue--${issue.severity}`}>
              <strong>{issue.severity}</strong> <code>{issue.tool}</code> <code>{issue.path || '/'}</code>:{' '}
              {issue.message}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
