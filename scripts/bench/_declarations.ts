/**
 * Real-world-shaped declarations for the workflow bench: the golden tool (read from tests/fixtures),
 * and schemas the way MCP servers and pydantic/zod emit them — `$defs` + `$ref`, `anyOf` with
 * null, enums, nested objects, arrays of objects, `definitions`, a 2020-12 `$schema` and an
 * outputSchema.
 */
import { parseDeclarationsText } from '../../lib/tools';
import type { ToolDeclaration } from '../../lib/tools/types';
import { SEED_DIR, readFixtureText } from '../../tests/fixtures';

/** The golden `optimize_structure` declaration, read from the repository's golden fixture rather than copied. */
export const seedTool: ToolDeclaration = readSeedTool();

function readSeedTool(): ToolDeclaration {
  const file = `${SEED_DIR}/tools.json`;
  const imported = parseDeclarationsText(readFixtureText(file));
  if (!imported.ok) {
    const issues = imported.error.map((i) => `${i.path}: ${i.message}`).join('; ');
    throw new Error(`tests/fixtures/${file} does not import: ${issues}`);
  }
  const [tool] = imported.value.tools;
  if (tool?.name !== 'optimize_structure') {
    throw new Error(`tests/fixtures/${file} should declare optimize_structure first`);
  }
  return tool;
}

/** pydantic v2 style: `$defs`, `$ref` with a default beside it, Optional as anyOf-null. */
export const runSimulation: ToolDeclaration = {
  name: 'run_md_simulation',
  description: 'Run a molecular dynamics simulation',
  inputSchema: {
    type: 'object',
    $defs: {
      Ensemble: { enum: ['NVE', 'NVT', 'NPT'], title: 'Ensemble', type: 'string' },
      Thermostat: {
        type: 'object',
        properties: {
          kind: { enum: ['nose-hoover', 'berendsen', 'langevin'], type: 'string' },
          tau: { type: 'number', default: 0.1 },
        },
        required: ['kind'],
      },
    },
    properties: {
      structure: { type: 'string', title: 'Structure', description: 'Structure file' },
      ensemble: { $ref: '#/$defs/Ensemble', default: 'NVT' },
      temperature: { anyOf: [{ type: 'number' }, { type: 'null' }], default: null, title: 'Temperature' },
      pressure: { anyOf: [{ type: 'number' }, { type: 'null' }], default: null },
      steps: { type: 'integer', minimum: 1, default: 10000 },
      timestep_fs: { type: 'number', exclusiveMinimum: 0, default: 1 },
      thermostat: { anyOf: [{ $ref: '#/$defs/Thermostat' }, { type: 'null' }], default: null },
      dump_every: { type: 'integer', default: 100 },
      seed: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
      executor: { type: 'object' },
      storage: { type: 'object' },
    },
    required: ['structure'],
  },
  outputSchema: {
    type: 'object',
    properties: {
      trajectory: { type: 'string' },
      final_structure: { type: 'string' },
      energies: { type: 'array', items: { type: 'number' } },
    },
  },
};

/** zod-to-json-schema style (MCP TypeScript servers): draft-07, additionalProperties false. */
export const searchFiles: ToolDeclaration = {
  name: 'search_files',
  description: 'Recursively search for files and directories matching a pattern.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string' },
      pattern: { type: 'string' },
      excludePatterns: { type: 'array', items: { type: 'string' }, default: [] },
    },
    required: ['path', 'pattern'],
    additionalProperties: false,
    $schema: 'http://json-schema.org/draft-07/schema#',
  },
};

/** Nested objects and arrays of objects, `definitions`, type arrays, const. */
export const submitJob: ToolDeclaration = {
  name: 'submit_job',
  description: 'Submit a batch job to the cluster',
  inputSchema: {
    type: 'object',
    definitions: {
      Resource: {
        type: 'object',
        properties: {
          cpus: { type: 'integer', minimum: 1 },
          memory_gb: { type: 'number' },
          gpu: { type: 'boolean', default: false },
        },
        required: ['cpus'],
      },
      File: {
        type: 'object',
        properties: { src: { type: 'string' }, dst: { type: 'string' } },
        required: ['src'],
      },
    },
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 64 },
      command: { type: 'array', items: { type: 'string' }, minItems: 1 },
      resources: { $ref: '#/definitions/Resource', default: { cpus: 1, memory_gb: 2 } },
      inputs: { type: 'array', items: { $ref: '#/definitions/File' }, default: [] },
      env: { type: 'object', additionalProperties: { type: 'string' }, default: {} },
      priority: { type: ['integer', 'null'], default: null },
      queue: { enum: ['short', 'long', 'gpu'] },
      api_version: { const: 2 },
      tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
      notify: {
        type: 'object',
        properties: { email: { type: 'string', format: 'email' }, on: { enum: ['end', 'fail', 'all'] } },
      },
      executor: { type: 'object' },
    },
    required: ['name', 'command'],
  },
  outputSchema: { type: 'object', properties: { job_id: { type: 'string' }, queued_at: { type: 'string' } } },
};

/** A 2020-12 schema (validated with Ajv 2020). */
export const fetchUrl: ToolDeclaration = {
  name: 'fetch',
  description: 'Fetches a URL from the internet and extracts its contents as markdown.',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      url: { type: 'string', format: 'uri', description: 'URL to fetch' },
      max_length: { type: 'integer', exclusiveMaximum: 1000000, exclusiveMinimum: 0, default: 5000 },
      start_index: { type: 'integer', minimum: 0, default: 0 },
      raw: { type: 'boolean', default: false },
      headers: { type: 'object', additionalProperties: { type: 'string' } },
    },
    required: ['url'],
  },
};

/** Annotations-heavy, no defaults, typeless parameters (`any`). */
export const storeMemory: ToolDeclaration = {
  name: 'create_entities',
  description: 'Create multiple new entities in the knowledge graph',
  inputSchema: {
    type: 'object',
    properties: {
      entities: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            entityType: { type: 'string' },
            observations: { type: 'array', items: { type: 'string' } },
          },
          required: ['name', 'entityType', 'observations'],
        },
      },
      metadata: {},
      storage: { type: 'object' },
    },
    required: ['entities'],
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
};

export const benchTools: ToolDeclaration[] = [
  seedTool,
  runSimulation,
  searchFiles,
  submitJob,
  fetchUrl,
  storeMemory,
];
