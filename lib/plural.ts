/**
 * A count with its noun, singular or plural as English needs: "1 edge", "2 edges", "0 steps".
 * Pure: used by the CLI, the planner's messages and the UI alike, so they never say "1 edges".
 */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
