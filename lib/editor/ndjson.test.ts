import { describe, expect, it } from 'vitest';
import { NdjsonLineError, readNdjson } from './ndjson';

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<unknown[]> {
  const values: unknown[] = [];
  for await (const value of readNdjson(stream)) values.push(value);
  return values;
}

describe('readNdjson', () => {
  it('yields values split across chunks, including a last line without a newline', async () => {
    const values = await collect(streamOf(['{"type":"st', 'art"}\n{"a":', '1}\n\n', '{"type":"done"}']));
    expect(values).toEqual([{ type: 'start' }, { a: 1 }, { type: 'done' }]);
  });

  it('decodes multi-byte characters split between chunks', async () => {
    const bytes = new TextEncoder().encode('{"t":"ångström"}\n');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 8));
        controller.enqueue(bytes.slice(8));
        controller.close();
      },
    });
    expect(await collect(stream)).toEqual([{ t: 'ångström' }]);
  });

  it('reports the number of a line that is not JSON', async () => {
    const run = collect(streamOf(['{"ok":true}\n\nnot json\n']));
    await expect(run).rejects.toBeInstanceOf(NdjsonLineError);
    await expect(collect(streamOf(['{"ok":true}\n\nnot json\n']))).rejects.toThrow(/Line 3/);
  });

  it('stops reading the stream when the consumer stops early', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('{"n":1}\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const value of readNdjson(stream)) {
      expect(value).toEqual({ n: 1 });
      break;
    }
    expect(cancelled).toBe(true);
  });
});
