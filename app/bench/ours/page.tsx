import { BenchEditor } from '@/components/bench/bench-editor';
import { generateWorkflow, getBenchSize } from '@/lib/bench/generate-workflow';
import { getValueProblems } from '@/lib/workflow/export';

export const metadata = { title: 'Bench: editor canvas' };

/** Our editor canvas on a generated workflow (`?n=500`), no database. Used by `npm run bench`. */
export default async function BenchOursPage({ searchParams }: { searchParams: Promise<{ n?: string }> }) {
  const { n } = await searchParams;
  const size = getBenchSize(n);
  // As the editor page does: values checked here, so the browser loads Ajv on the first change.
  return <BenchEditor key={size} n={size} valueProblems={getValueProblems(generateWorkflow(size))} />;
}
