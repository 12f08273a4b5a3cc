/**
 * Refreshes the declarations of the runnable samples (lib/toolkits/builtin/mcp-*.json) from the
 * installed memory and filesystem MCP servers: `npx tsx scripts/capture-sample-tools.ts`. The
 * test "carry exactly the tools their servers list today" says when this is needed.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { allowServerOnlyImports } from '../lib/server-context';

allowServerOnlyImports();
const { listMcpTools } = await import('../lib/mcp/client');
const { getConfiguredStdioTarget } = await import('../lib/mcp/config');
const { LOCAL_SAMPLE_SPACE } = await import('../lib/mcp/sample-spaces');
const env = { TOOLFLOW_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'toolflow-capture-')) };
for (const [server, file] of [
  ['memory', 'mcp-memory.json'],
  ['filesystem', 'mcp-filesystem.json'],
]) {
  const target = await getConfiguredStdioTarget(server, { env, space: LOCAL_SAMPLE_SPACE });
  if (!target.ok) throw new Error(target.error[0].message);
  const listed = await listMcpTools(target.value, {
    timeoutMs: 30_000,
    maxBytes: 10_000_000,
    allowPrivate: false,
  });
  if (!listed.ok) throw new Error(listed.error.message);
  const tools = listed.value.tools.map(({ source: _source, ...rest }) => rest);
  writeFileSync(path.join('lib/toolkits/builtin', file), JSON.stringify(tools, null, 2) + '\n');
  console.log(
    `${file}: ${tools.length} tools from ${listed.value.serverInfo?.name} ${listed.value.serverInfo?.version}`,
  );
}
