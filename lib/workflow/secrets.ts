/**
 * Before a workflow is shared, every parameter value is scanned for things that look like
 * secrets, so the owner is warned (naming the fields) instead of publishing an API key by
 * accident. Heuristics, tuned to prefer a false alarm over a leak: known key formats, private
 * keys, JWTs, passwords in URLs, credential query parameters, and any non-trivial string under a
 * parameter whose name says it holds a credential.
 */
import type { WorkflowDocument } from './types';

export interface SecretFinding {
  nodeId: string;
  tool: string;
  /** The top-level parameter name. */
  param: string;
  /** Where inside the value, as `param.key.0.key` (equal to `param` for a plain string). */
  field: string;
  /** What it looks like, e.g. "OpenAI API key", "password in a URL". */
  kind: string;
}

const VALUE_PATTERNS: { kind: string; pattern: RegExp }[] = [
  { kind: 'private key', pattern: /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----/ },
  { kind: 'Anthropic API key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/ },
  { kind: 'OpenAI API key', pattern: /\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,}/ },
  { kind: 'Stripe key', pattern: /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/ },
  { kind: 'GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/ },
  { kind: 'GitLab token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/ },
  { kind: 'Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/ },
  { kind: 'AWS access key id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { kind: 'Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}/ },
  { kind: 'Hugging Face token', pattern: /\bhf_[A-Za-z0-9]{30,}/ },
  { kind: 'JSON Web Token', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/ },
  { kind: 'bearer token', pattern: /\bBearer\s+[A-Za-z0-9._~+/=-]{16,}/i },
  { kind: 'password in a URL', pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i },
  {
    kind: 'credential in a URL query',
    pattern:
      /[?&](?:api[_-]?key|apikey|access[_-]?token|auth[_-]?token|token|secret|client[_-]?secret|password|passwd|pwd|sig|signature|key)=[^&\s#]{8,}/i,
  },
];

/** Parameter (or nested key) names that say the value is a credential. */
const SECRET_NAME =
  /(?:^|[_\-.\s]|(?<=[a-z])(?=[A-Z]))(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|auth|authorization|credentials?|cookie|session[_-]?id)s?$/i;

/** A value under a credential-sounding name is only flagged when it could be a real one. */
function isPlausibleCredential(value: string): boolean {
  const v = value.trim();
  if (v.length < 8) return false;
  if (/^\{\{.*\}\}$/.test(v) || /^\$\{.*\}$/.test(v) || /^\$[A-Z_][A-Z0-9_]*$/.test(v)) return false; // a reference or env var
  if (/^(?:x+|\*+|changeme|password|your[_-].*|<.*>)$/i.test(v)) return false; // an obvious placeholder
  return true;
}

function matchValue(value: string): string | null {
  for (const { kind, pattern } of VALUE_PATTERNS) if (pattern.test(value)) return kind;
  return null;
}

function scan(
  value: unknown,
  key: string,
  field: string,
  depth: number,
  report: (field: string, kind: string) => void,
) {
  if (depth > 32) return;
  if (typeof value === 'string') {
    const kind = matchValue(value);
    if (kind) report(field, kind);
    else if (SECRET_NAME.test(key) && isPlausibleCredential(value)) report(field, `value of "${key}"`);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => scan(item, key, `${field}.${i}`, depth + 1, report));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) scan(v, k, `${field}.${k}`, depth + 1, report);
  }
}

/** Every parameter value in the document that looks like a secret, in node order. */
export function findSecrets(doc: WorkflowDocument): SecretFinding[] {
  const findings: SecretFinding[] = [];
  for (const node of doc.nodes) {
    const seen = new Set<string>();
    const values: [string, unknown][] = [
      ...Object.entries(node.args),
      // A placeholder node (unknown tool) keeps its imported values: they are shared too.
      ...(node.placeholderParams ?? []).map((p): [string, unknown] => [p.name, p.value]),
    ];
    if (node.rawArguments) values.push(['raw arguments', node.rawArguments]);
    for (const [param, value] of values) {
      scan(value, param, param, 0, (field, kind) => {
        if (seen.has(field)) return;
        seen.add(field);
        findings.push({ nodeId: node.id, tool: node.tool, param, field, kind });
      });
    }
  }
  return findings;
}

/** "step_1 (fetch_url) › headers.Authorization looks like a bearer token; …" for a warning. */
export function describeSecretFindings(findings: readonly SecretFinding[]): string {
  return findings
    .map((f) =>
      f.kind.startsWith('value of')
        ? `${f.nodeId} (${f.tool}) › ${f.field} holds a credential-like value`
        : `${f.nodeId} (${f.tool}) › ${f.field} looks like ${/^[aeiou]/i.test(f.kind) ? 'an' : 'a'} ${f.kind}`,
    )
    .join('; ');
}
