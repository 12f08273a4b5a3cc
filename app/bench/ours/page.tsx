import { BenchEditor } from '@/components/bench/bench-editor';
import { getBenchSize } from '@/lib/bench/generate-workflow';

export const metadata = { title: 'Bench: editor canvas' };

/** Our editor canvas on a generated workflow (`?n=500`), no database. Used by `npm run bench`. */
export default async function BenchOursPage({ searchParams }: { searchParams: Promise<{ n?: string }> }) {
  const { n } = await searchParams;
  const size = getBenchSize(n);
  return <BenchEditor key={size} n={size} />;
}
