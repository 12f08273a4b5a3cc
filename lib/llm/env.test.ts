import { describe, expect, it } from 'vitest';
import { createPlannerFromEnv } from './env';

describe('createPlannerFromEnv', () => {
  it('uses the offline planner when no key is set, and says why', () => {
    const choice = createPlannerFromEnv({});
    expect(choice).toMatchObject({
      ok: true,
      value: {
        kind: 'offline',
        description: 'offline (no OPENAI_API_KEY set; rule-based, no language model)',
      },
    });
    if (choice.ok) expect(choice.value.port.planner).toBe('offline');
  });

  it('uses OpenAI Chat Completions when a key is set', () => {
    const choice = createPlannerFromEnv({ OPENAI_API_KEY: 'sk-x' });
    expect(choice).toMatchObject({
      ok: true,
      value: { kind: 'openai', description: 'openai-chat (gpt-4.1-mini at https://api.openai.com/v1)' },
    });
  });

  it('reads the base URL, model and API, and the text protocol', () => {
    const responses = createPlannerFromEnv({
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      TOOLFLOW_MODEL: 'qwen',
      TOOLFLOW_LLM_API: 'responses',
    });
    expect(responses.ok && responses.value.description).toBe(
      'openai-responses (qwen at http://127.0.0.1:9/v1)',
    );
    const text = createPlannerFromEnv({ OPENAI_API_KEY: 'k', TOOLFLOW_LLM_API: 'text' });
    expect(text.ok && [text.value.port.planner, text.value.port.protocol, text.value.description]).toEqual([
      'openai-chat',
      'text',
      'openai-chat (gpt-4.1-mini at https://api.openai.com/v1, text protocol)',
    ]);
  });

  it('lets a local server be used without a key when the OpenAI planner is asked for', () => {
    expect(createPlannerFromEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' }, 'openai')).toMatchObject({
      ok: true,
      value: { kind: 'openai' },
    });
    expect(createPlannerFromEnv({}, 'openai')).toEqual({
      ok: false,
      error: expect.stringContaining('needs OPENAI_API_KEY'),
    });
  });

  it('honours an explicit offline choice even with a key', () => {
    expect(createPlannerFromEnv({ OPENAI_API_KEY: 'k' }, 'offline')).toMatchObject({
      ok: true,
      value: { kind: 'offline', description: expect.stringContaining('offline (chosen') },
    });
  });

  it('refuses bad settings, naming the variable and what it accepts', () => {
    expect(createPlannerFromEnv({ OPENAI_API_KEY: 'k', TOOLFLOW_LLM_API: 'completions' })).toEqual({
      ok: false,
      error: 'TOOLFLOW_LLM_API is "completions"; use one of chat, responses, text.',
    });
    expect(createPlannerFromEnv({ OPENAI_API_KEY: 'k', TOOLFLOW_LLM_TIMEOUT_MS: '-5' })).toEqual({
      ok: false,
      error: 'TOOLFLOW_LLM_TIMEOUT_MS is "-5"; use a whole number ≥ 1.',
    });
  });
});
