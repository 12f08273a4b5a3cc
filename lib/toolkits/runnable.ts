/**
 * Which toolkits a test-run can call (runnable) and which only declare tools. A toolkit is
 * runnable when this Toolflow has a server for its tools: a runnable sample whose server is on,
 * a stdio server still configured here, or an MCP URL (checked again by the URL guard when a run
 * connects). A declarations file, and a sample that is declarations only, have no server: their
 * tools can be planned, edited and exported, and a run marks them failed without a call. Pure:
 * the configured server names are passed in.
 */
import { BUILTIN_TOOLKITS } from './builtin';

export interface Runnability {
  runnable: boolean;
  /** Why, in a sentence, shown after "Runnable" or "Declarations only". */
  note: string;
}

/**
 * Whether a run can call the tools of a toolkit stored with `sourceKind` and `sourceRef` (a
 * built-in toolkit's key, a configured server's name, a URL or a file name), given the stdio
 * servers configured here (the runnable samples included while they are on).
 */
export function getToolkitRunnability(
  toolkit: { sourceKind: string; sourceRef: string | null },
  configuredServers: ReadonlySet<string>,
): Runnability {
  const ref = toolkit.sourceRef ?? '';
  switch (toolkit.sourceKind) {
    case 'builtin': {
      const server = BUILTIN_TOOLKITS.find((b) => b.key === ref)?.server;
      if (!server)
        return {
          runnable: false,
          note: 'A sample to plan with; no server runs its tools.',
        };
      return configuredServers.has(server)
        ? {
            runnable: true,
            note: 'A test-run calls its tools on a sample server Toolflow runs itself.',
          }
        : { runnable: false, note: 'Its sample server is turned off on this Toolflow server.' };
    }
    case 'mcp-stdio':
      return configuredServers.has(ref)
        ? { runnable: true, note: `A test-run calls its tools on the configured server "${ref}".` }
        : { runnable: false, note: `The server "${ref}" is no longer configured on this Toolflow server.` };
    case 'mcp-http':
      return { runnable: true, note: 'A test-run calls its tools at its MCP server’s URL.' };
    default:
      return {
        runnable: false,
        note: 'A file has no server behind it: plan and export with it; to run, add the same tools from an MCP server.',
      };
  }
}
