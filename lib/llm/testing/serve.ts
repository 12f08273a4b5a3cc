/**
 * `npm run mock-llm -- [--scenario FILE] [--port N]`: start the scripted OpenAI-protocol server
 * for a person who wants to try the LLM path without a key. Prints the URL and how to point
 * Toolflow at it, then one line per request. Ctrl+C stops it.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseScenario } from './scenario';
import { startScriptedServer } from './server';
import { countOf } from '../../plural';

const DEFAULT_SCENARIO = fileURLToPath(new URL('./scenarios/optimize-phonons.json', import.meta.url));

async function main(argv: string[]): Promise<number> {
  let values: { scenario?: string; port?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        scenario: { type: 'string' },
        port: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(
      `mock-llm: ${(error as Error).message}\nUsage: npm run mock-llm -- [--scenario FILE] [--port N]\n`,
    );
    return 2;
  }
  if (values.help) {
    process.stdout.write(
      'Usage: npm run mock-llm -- [--scenario FILE] [--port N]\nScenarios: lib/llm/testing/scenarios/*.json (default optimize-phonons.json)\n',
    );
    return 0;
  }
  const file = values.scenario ?? DEFAULT_SCENARIO;
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    process.stderr.write(
      `mock-llm: cannot read scenario "${file}": ${(error as Error).message}. Check the path and that it is JSON.\n`,
    );
    return 1;
  }
  const scenario = parseScenario(json);
  if (!scenario.ok) {
    for (const issue of scenario.error) process.stderr.write(`${file} ${issue.path}: ${issue.message}\n`);
    return 1;
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    process.stderr.write(`mock-llm: --port "${values.port}" is not a port number (0–65535).\n`);
    return 2;
  }
  const server = await startScriptedServer(scenario.value, {
    ...(port !== undefined ? { port } : {}),
    log: (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
  });
  const name = scenario.value.name ?? file;
  process.stdout.write(
    `Scripted OpenAI-protocol server on ${server.url} (scenario "${name}", ${countOf(scenario.value.turns.length, 'turn')})\n` +
      `Point Toolflow at it:\n  OPENAI_BASE_URL=${server.baseURL} OPENAI_API_KEY=scripted npm run dev\n` +
      `  OPENAI_BASE_URL=${server.baseURL} OPENAI_API_KEY=scripted npm run --silent toolflow -- plan "<task>" --tools FILE --llm openai\n` +
      `Add TOOLFLOW_LLM_API=responses to use the Responses API. Ctrl+C stops the server.\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  return 0;
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
