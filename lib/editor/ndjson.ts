/**
 * Reads a newline-delimited JSON stream (one value per line) as values arrive, so the planner's
 * events reach the canvas while the model is still answering. A line that is not JSON is
 * reported with its line number rather than dropped.
 */
import { parseJson } from '../tools/json-value';

/** A line of the stream that was not valid JSON. */
export class NdjsonLineError extends Error {
  constructor(
    readonly line: number,
    readonly text: string,
  ) {
    super(`Line ${line} of the planner's stream is not JSON (${text.slice(0, 80)}); the run was stopped.`);
    this.name = 'NdjsonLineError';
  }
}

/** Yields each JSON value of an NDJSON byte stream in order; blank lines are skipped. */
export async function* readNdjson(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  let lineNumber = 0;
  const parseLine = (line: string): unknown => {
    lineNumber++;
    try {
      return parseJson(line);
    } catch {
      throw new NdjsonLineError(lineNumber, line);
    }
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      let newline = buffered.indexOf('\n');
      while (newline >= 0) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        if (line) yield parseLine(line);
        else lineNumber++;
        newline = buffered.indexOf('\n');
      }
    }
    buffered += decoder.decode();
    if (buffered.trim()) yield parseLine(buffered.trim());
  } finally {
    // Stops the download when the consumer stops early (Cancel, or an error above).
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
