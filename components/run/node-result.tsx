'use client';
/**
 * One step of a run: its status and time, the arguments exactly as sent, and what came back, once:
 * structuredContent when the tool sent it (its text content is the same data as text), else the
 * content blocks (text, images as images, audio, resources). A failed step's error reads as a
 * sentence, with the machine code and the tool's own words on a details line; a step that was
 * cancelled or not called is a note, not an error.
 */
import { useEffect, useState } from 'react';
import { getNodeRun } from '@/lib/api/runs';
import type { NodeRunDetailJson } from '@/lib/api/types';
import { formatDuration } from './run-status';

/** What the content route serves (app/api/runs/…/content/[index]); anything else is listed, not rendered. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp']);
const AUDIO_TYPES = /^audio\/(wav|x-wav|mpeg|mp3|ogg|webm)$/;

function Json({ value, testId }: { value: unknown; testId?: string }) {
  return (
    // Focusable, so a keyboard can scroll it (it scrolls when long).
    <pre className="run-json" tabIndex={0} data-testid={testId}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

function ContentBlock({ block, index, at }: { block: Record<string, unknown>; index: number; at: string }) {
  const mime = typeof block.mimeType === 'string' ? block.mimeType : '';
  const data = typeof block.data === 'string' ? block.data : '';
  if (block.type === 'text') {
    return (
      <pre className="run-json run-text" tabIndex={0} data-testid="result-text">
        {String(block.text)}
      </pre>
    );
  }
  if (block.type === 'image') {
    if (!data) return <p className="muted">Image ({mime}) not stored: it was over the size limit.</p>;
    if (!IMAGE_TYPES.has(mime))
      return <p className="muted">Image of type {mime || 'unknown'} (not shown).</p>;
    return (
      // eslint-disable-next-line @next/next/no-img-element -- bytes a tool returned, served by the run content route
      <img
        className="run-image"
        src={`/api/runs/${at}/content/${index}`}
        alt={`Image ${index + 1} returned by the tool`}
        data-testid="result-image"
      />
    );
  }
  if (block.type === 'audio' && data && AUDIO_TYPES.test(mime)) {
    return <audio controls src={`/api/runs/${at}/content/${index}`} data-testid="result-audio" />;
  }
  return <Json value={block} />;
}

/** Statuses whose reason is a note (the person cancelled, or a step before it did not succeed). */
const NOTE_STATUSES = new Set(['cancelled', 'skipped']);

/** Why a step failed or was not called: the headline, then the details line. */
function StepError({ error, status }: { error: NonNullable<NodeRunDetailJson['error']>; status: string }) {
  const note = NOTE_STATUSES.has(status);
  return (
    <div
      className={note ? 'run-note' : 'run-error'}
      role={note ? undefined : 'alert'}
      data-testid="run-node-error"
    >
      <p className="run-error__headline" data-testid="run-node-error-headline">
        {error.message}
      </p>
      <p className="run-error__details" data-testid="run-node-error-details">
        <code>{error.code}</code>
        {error.path ? (
          <>
            {' '}
            at <code>{error.path}</code>
          </>
        ) : null}
        {error.detail ? <> · {error.detail}</> : null}
      </p>
    </div>
  );
}

/**
 * What came back, once. With structuredContent, the content's text blocks repeat it as text and
 * are left out (images, audio and resources are not, they are more); a tool's error text is on
 * the error's details line already.
 */
function StepResult({ node, at }: { node: NodeRunDetailJson; at: string }) {
  const result = node.result!;
  const textIsShown = result.structuredContent !== undefined || node.error?.code === 'tool_error';
  const blocks = result.content
    .map((block, index) => ({ block: block as Record<string, unknown>, index }))
    .filter(({ block }) => !(textIsShown && block.type === 'text'));
  if (result.structuredContent === undefined && blocks.length === 0) return null;
  return (
    <>
      <h4>Result{result.isError ? ' (the tool reported an error)' : ''}</h4>
      {result.structuredContent !== undefined ? (
        <Json value={result.structuredContent} testId="result-structured" />
      ) : null}
      {blocks.map(({ block, index }) => (
        <ContentBlock key={index} block={block} index={index} at={at} />
      ))}
    </>
  );
}

export function NodeResult({ runId, nodeId, status }: { runId: string; nodeId: string; status: string }) {
  const [node, setNode] = useState<NodeRunDetailJson | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Fetched again whenever the step's status changes (running → succeeded brings the result).
  useEffect(() => {
    let live = true;
    void getNodeRun(runId, nodeId).then((res) => {
      if (!live) return;
      if (res.ok) {
        setNode(res.value.node);
        setError(null);
      } else setError(res.error.message);
    });
    return () => {
      live = false;
    };
  }, [runId, nodeId, status]);
  if (error) return <p className="run-error">{error}</p>;
  if (!node || node.nodeId !== nodeId) return <p className="muted">Loading the step…</p>;
  return (
    <div className="run-node" data-testid="run-node-detail">
      <h3 className="run-node__title">
        {node.stepIndex}. {node.nodeId} <code>{node.toolName}</code>
      </h3>
      <p>
        <span className={`run-pill run-pill--${node.status}`} data-testid="run-node-status">
          {node.status}
        </span>
        {node.durationMs !== null ? ` in ${formatDuration(node.durationMs)}` : ''}
        {node.server ? (
          <span className="muted">
            {' '}
            on <code>{node.server}</code>
          </span>
        ) : null}
      </p>
      {node.error ? <StepError error={node.error} status={node.status} /> : null}
      {node.truncated.length ? (
        <div className="run-cut" data-testid="run-node-truncated">
          Cut to stay within the stored size limit (the next step got the whole value):
          <ul>
            {node.truncated.map((cut) => (
              <li key={cut}>
                <code>{cut}</code>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <h4>Arguments sent</h4>
      {node.arguments ? (
        <Json value={node.arguments} testId="run-node-arguments" />
      ) : (
        <p className="muted">Not called.</p>
      )}
      {node.result ? (
        <StepResult node={node} at={`${encodeURIComponent(runId)}/nodes/${encodeURIComponent(nodeId)}`} />
      ) : null}
    </div>
  );
}
