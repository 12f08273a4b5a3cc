'use client';
import { useCallback, useEffect, useState } from 'react';
import { listToolkits, type ConfiguredMcpServer, type ToolkitSummary } from '../api/toolkits';

export interface ToolkitsState {
  /** null while the first load runs. */
  toolkits: ToolkitSummary[] | null;
  /** stdio MCP servers configured on the server, which a toolkit can be made from. */
  mcpServers: ConfiguredMcpServer[];
  error: string | null;
  reload(): void;
}

/** Loads the toolkit list once on mount; `reload` fetches it again (after an add or delete). */
export function useToolkits(): ToolkitsState {
  const [toolkits, setToolkits] = useState<ToolkitSummary[] | null>(null);
  const [mcpServers, setMcpServers] = useState<ConfiguredMcpServer[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    listToolkits({ signal: controller.signal })
      .then((result) => {
        if (result.ok) {
          setToolkits(result.value.toolkits);
          setMcpServers(result.value.mcpServers);
          setError(null);
        } else {
          setToolkits((previous) => previous ?? []);
          setError(result.error.message);
        }
      })
      .catch(() => undefined); // aborted on unmount
    return () => controller.abort();
  }, [generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { toolkits, mcpServers, error, reload };
}
