'use client';
import { useState } from 'react';
import { parseArgsText } from '@/lib/editor/args-text';
import { isJsonEqual } from '@/lib/editor/param-form';

interface Props {
  args: Record<string, unknown>;
  /** The model's argument text when it was not valid JSON, shown for reference. */
  rawArguments?: string;
  disabled: boolean;
  onApply(args: Record<string, unknown>): void;
}

const format = (args: Record<string, unknown>) => JSON.stringify(args, null, 2);

/**
 * The node's tool_args as editable JSON. Apply checks the text (an object of name → value) and
 * replaces the args in one undoable step; a syntax error names its line and column and changes
 * nothing. Edits made elsewhere replace the text unless it has unapplied changes.
 */
export function RawArgsEditor({ args, rawArguments, disabled, onApply }: Props) {
  const [text, setText] = useState(() => format(args));
  const [base, setBase] = useState(args);
  const [error, setError] = useState<string | null>(null);
  const dirty = text !== format(base);

  // The args changed elsewhere (the form, undo): follow them unless the person is mid-edit.
  if (args !== base && !dirty) {
    setBase(args);
    setText(format(args));
  }

  const apply = () => {
    const parsed = parseArgsText(text);
    if (!parsed.ok) {
      setError(parsed.message);
      return;
    }
    setError(null);
    if (!isJsonEqual(parsed.value, args)) onApply(parsed.value);
    setBase(parsed.value);
    setText(format(parsed.value));
  };

  return (
    <div className="raw-args">
      {rawArguments !== undefined ? (
        <div className="raw-args__model" data-testid="inspector-raw-model">
          <p className="muted">The model sent these arguments, which were not valid JSON:</p>
          <pre>{rawArguments}</pre>
        </div>
      ) : null}
      <label className="raw-args__label" htmlFor="inspector-raw-text">
        Arguments (tool_args) as JSON
      </label>
      <textarea
        id="inspector-raw-text"
        className="raw-args__text"
        spellCheck={false}
        value={text}
        disabled={disabled}
        onChange={(e) => {
          setText(e.target.value);
          setError(null);
        }}
        onKeyDown={(e) => {
          if ((e.metaKey || e.ctrlKey) && e.key === 'Enter') {
            e.preventDefault();
            apply();
          }
        }}
        rows={Math.min(24, Math.max(6, text.split('\n').length + 1))}
        aria-invalid={error !== null}
        aria-describedby={error ? 'inspector-raw-error' : undefined}
        data-testid="inspector-raw-text"
      />
      {error ? (
        <p id="inspector-raw-error" className="error-text" role="alert" data-testid="inspector-raw-error">
          {error}
        </p>
      ) : null}
      <div className="raw-args__actions">
        <button
          type="button"
          className="btn btn-primary"
          disabled={disabled || !dirty}
          onClick={apply}
          data-testid="inspector-raw-apply"
        >
          Apply
        </button>
        <button
          type="button"
          className="btn"
          disabled={!dirty}
          onClick={() => {
            setText(format(args));
            setBase(args);
            setError(null);
          }}
          data-testid="inspector-raw-revert"
        >
          Revert
        </button>
        <span className="muted raw-args__hint">Ctrl+Enter applies</span>
      </div>
    </div>
  );
}
