import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { areBenchPagesEnabled } from '@/lib/bench/pages';
import '@/components/bench/bench.css';

/**
 * The bench pages are not part of the product: every one of them answers 404 unless the server
 * was started with TOOLFLOW_BENCH_PAGES=1 (scripts/bench/editor.ts sets it).
 */
export default async function BenchLayout({ children }: { children: React.ReactNode }) {
  // Decided per request, never baked in at build time.
  await connection();
  if (!areBenchPagesEnabled()) notFound();
  return children;
}
