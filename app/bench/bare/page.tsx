import { BenchBare } from '@/components/bench/bench-bare';
import { getBenchSize } from '@/lib/bench/generate-workflow';

export const metadata = { title: 'Bench: bare React Flow' };

/** The same generated graph in bare React Flow (`?n=500`): the benchmark's reference. */
export default async function BenchBarePage({ searchParams }: { searchParams: Promise<{ n?: string }> }) {
  const { n } = await searchParams;
  const size = getBenchSize(n);
  return <BenchBare key={size} n={size} />;
}
