/**
 * Tasks to try on the runnable samples, offered on the home page: each is written with its values
 * quoted, so the offline planner plans every step completely (no required value left to fill
 * in), and the plan then runs green on a fresh Files folder or Memory graph.
 * tests/runnable-examples.test.ts plans and runs each one; the Playwright suite clicks one, plans
 * it, runs it and checks every step succeeded. Kept apart from builtin.ts (the declarations), so
 * the home page loads these few lines only.
 */
import type { BuiltinToolkitKey } from './builtin-ids';

export interface RunnableExample {
  /** What the example button says. */
  title: string;
  /** The task, as it is put in the prompt. */
  task: string;
  /** The runnable sample it plans with (the only toolkit ticked). */
  toolkit: Extract<BuiltinToolkitKey, 'memory' | 'files'>;
}

export const RUNNABLE_EXAMPLES: readonly RunnableExample[] = [
  {
    title: 'Write a note and read it back',
    task: 'Write "Buy milk" to the file "todo.txt", then read the file "todo.txt"',
    toolkit: 'files',
  },
  {
    title: 'Make a folder, write into it, list it',
    task: 'Create the folder "notes", write "Buy milk" to "notes/todo.txt", then list the folder "notes"',
    toolkit: 'files',
  },
  {
    title: 'Relate Alice to Bob in a graph',
    task: 'Relate "Alice" to "Bob" as "knows", then read the graph',
    toolkit: 'memory',
  },
];
