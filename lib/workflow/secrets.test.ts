import { describe, expect, it } from 'vitest';
import { describeSecretFindings, findSecrets } from './secrets';
import { asNodeId, type WorkflowDocument, type WorkflowNode } from './types';

const node = (
  id: string,
  args: Record<string, unknown>,
  extra: Partial<WorkflowNode> = {},
): WorkflowNode => ({
  id: asNodeId(id),
  tool: 'fetch_url',
  position: { x: 0, y: 0 },
  args,
  ...extra,
});
const doc = (...nodes: WorkflowNode[]): WorkflowDocument => ({ task: '', nodes, edges: [], tools: {} });
const kinds = (d: WorkflowDocument) => findSecrets(d).map((f) => [f.field, f.kind]);

describe('findSecrets', () => {
  it('finds known key formats wherever they sit in a value', () => {
    const d = doc(
      node('step_1', {
        model_key: 'sk-proj-abcdefghijklmnopqrstuvwxyz012345',
        headers: { 'X-Trace': 'ok', Authorization: 'Bearer abcdefghijklmnopqrstuvwxyz' },
        list: ['fine', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'],
      }),
      node('step_2', {
        aws: 'AKIAIOSFODNN7EXAMPLE',
        jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlMTIz',
      }),
    );
    expect(kinds(d)).toEqual([
      ['model_key', 'OpenAI API key'],
      ['headers.Authorization', 'bearer token'],
      ['list.1', 'GitHub token'],
      ['aws', 'AWS access key id'],
      ['jwt', 'JSON Web Token'],
    ]);
  });

  it('finds passwords and tokens in URLs', () => {
    const d = doc(
      node('step_1', {
        dsn: 'postgres://admin:hunter22@db.internal:5432/prod',
        url: 'https://api.example.com/v1/data?format=csv&api_key=abcd1234efgh5678',
      }),
    );
    expect(kinds(d)).toEqual([
      ['dsn', 'password in a URL'],
      ['url', 'credential in a URL query'],
    ]);
  });

  it('flags a plausible value under a credential-sounding name, and not placeholders or references', () => {
    const d = doc(
      node('step_1', {
        password: 'correct horse battery',
        apiKey: 'k9s8d7f6g5h4',
        client_secret: '{{step_0.result}}',
        token: '',
        auth_token: '$GITHUB_TOKEN',
        session_id: 'xxxxxxxx',
      }),
    );
    expect(kinds(d)).toEqual([
      ['password', 'value of "password"'],
      ['apiKey', 'value of "apiKey"'],
    ]);
  });

  it('does not flag ordinary parameters that merely mention tokens', () => {
    const d = doc(
      node('step_1', {
        max_tokens: 1000,
        tokenizer: 'cl100k_base',
        input_structure: 'structures/Si.cif',
        url: 'https://example.com/data.csv?page=2',
        notes: 'keep the secret sauce',
      }),
    );
    expect(findSecrets(d)).toEqual([]);
  });

  it('scans the values kept on placeholder nodes and raw model arguments', () => {
    const d = doc(
      node(
        'step_1',
        {},
        {
          tool: 'gone_tool',
          placeholderParams: [
            {
              name: 'key',
              type: 'str',
              value: 'sk-ant-abcdefghijklmnopqrstuvwxyz',
              origin: 'arg',
              required: true,
            },
          ],
          rawArguments: '{"password": "postgres://u:p4ssw0rd@h/db"',
        },
      ),
    );
    expect(findSecrets(d)).toEqual([
      { nodeId: 'step_1', tool: 'gone_tool', param: 'key', field: 'key', kind: 'Anthropic API key' },
      {
        nodeId: 'step_1',
        tool: 'gone_tool',
        param: 'raw arguments',
        field: 'raw arguments',
        kind: 'password in a URL',
      },
    ]);
  });
});

describe('describeSecretFindings', () => {
  it('names node, tool and field for each finding', () => {
    const d = doc(
      node('step_3', {
        headers: { Authorization: 'Bearer abcdefghijklmnopqrstuvwx' },
        password: 'p4ssw0rd!',
      }),
    );
    expect(describeSecretFindings(findSecrets(d))).toBe(
      'step_3 (fetch_url) › headers.Authorization looks like a bearer token; step_3 (fetch_url) › password holds a credential-like value',
    );
  });
});
