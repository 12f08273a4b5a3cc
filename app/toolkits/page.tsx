import type { Metadata } from 'next';
import Link from 'next/link';
import { ToolkitManager } from '@/components/toolkits/toolkit-manager';

export const metadata: Metadata = { title: 'Toolkits' };

/** The toolkit manager: add toolkits from files or MCP servers, refresh, delete, read schemas. */
export default function ToolkitsPage() {
  return (
    <main className="page">
      <p className="muted" style={{ margin: '0 0 8px' }}>
        <Link href="/">← Workflows</Link>
      </p>
      <h1>Toolkits</h1>
      <p className="muted" style={{ margin: 0 }}>
        The tools the planner and the palette offer. Add a declarations file in any common format, or an MCP
        server; refresh to pick up changes.
      </p>
      <ToolkitManager />
    </main>
  );
}
