import { describe, expect, it } from 'vitest';
import { getModelLabel } from './model-label';

describe('getModelLabel', () => {
  it('leaves the endpoint out of the model name', () => {
    expect(getModelLabel('openai-chat (gpt-4.1-mini at https://api.openai.com/v1)')).toBe(
      'openai-chat (gpt-4.1-mini)',
    );
    expect(getModelLabel('openai-responses (m at http://127.0.0.1:3211/v1, text protocol)')).toBe(
      'openai-responses (m)',
    );
  });
});
