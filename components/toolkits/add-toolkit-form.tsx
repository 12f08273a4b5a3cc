'use client';
import { useState } from 'react';
import { describeApiError } from '@/lib/api/client';
import { createToolkit, type ConfiguredMcpServer, type ToolkitSummary } from '@/lib/api/toolkits';
import type { CreateToolkitRequest } from '@/lib/api/types';
import { err, ok, type Result } from '@/lib/result';

type Source = 'paste' | 'upload' | 'mcp-url' | 'mcp-server';

interface Props {
  mcpServers: ConfiguredMcpServer[];
  onAdded(toolkit: ToolkitSummary): void;
}

/** Files larger than this are refused in the browser (the server has its own limit). */
const MAX_FILE_BYTES = 5 * 1024 * 1024;

function getNameFromUrl(url: string): string {
  try {
    const u = new URL(url);
    return u.hostname + (u.pathname !== '/' ? u.pathname.replace(/\/$/, '') : '');
  } catch {
    return '';
  }
}

/**
 * Add a toolkit: paste or upload a declarations file in any format Toolflow reads (MCP
 * tools/list, OpenAI, Gemini, Anthropic, a plain list), give an MCP server URL for the server
 * to list, or pick an MCP server configured on the server.
 */
export function AddToolkitForm({ mcpServers, onAdded }: Props) {
  const [source, setSource] = useState<Source>('paste');
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [url, setUrl] = useState('');
  const [server, setServer] = useState(mcpServers[0]?.name ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const sources: { id: Source; label: string }[] = [
    { id: 'paste', label: 'Paste' },
    { id: 'upload', label: 'Upload file' },
    { id: 'mcp-url', label: 'MCP server URL' },
    ...(mcpServers.length > 0 ? [{ id: 'mcp-server' as const, label: 'Configured MCP server' }] : []),
  ];

  const onFile = async (file: File | undefined) => {
    setError(null);
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setError(
        `"${file.name}" is ${(file.size / 1024 / 1024).toFixed(1)} MB; declaration files up to 5 MB are accepted. Split it into several toolkits.`,
      );
      return;
    }
    setText(await file.text());
    setFileName(file.name);
    if (!name.trim()) setName(file.name.replace(/\.(json|txt)$/i, ''));
  };

  const submit = async () => {
    setError(null);
    const request = getCreateRequest({ source, name, text, fileName, url, server });
    if (!request.ok) {
      setError(request.error);
      return;
    }
    const input = request.value;
    setBusy(true);
    const result = await createToolkit(input);
    setBusy(false);
    if (!result.ok) {
      setError(describeApiError(result.error));
      return;
    }
    setName('');
    setText('');
    setFileName(null);
    setUrl('');
    onAdded(result.value.toolkit);
  };

  return (
    <form
      className="add-toolkit card"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      data-testid="add-toolkit"
    >
      <h2 className="add-toolkit__title">Add a toolkit</h2>
      <div className="seg" role="tablist" aria-label="Where the tools come from">
        {sources.map((s) => (
          <button
            key={s.id}
            type="button"
            role="tab"
            aria-selected={source === s.id}
            className={`seg__btn${source === s.id ? ' seg__btn--on' : ''}`}
            onClick={() => {
              setSource(s.id);
              setError(null);
            }}
            data-testid={`add-toolkit-source-${s.id}`}
          >
            {s.label}
          </button>
        ))}
      </div>
      <label className="field">
        <span className="field__label">Name</span>
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder={
            source === 'mcp-url' ? 'e.g. Everything server (defaults to the host)' : 'e.g. My lab tools'
          }
          data-testid="add-toolkit-name"
        />
      </label>
      <SourceFields
        source={source}
        text={text}
        fileName={fileName}
        url={url}
        server={server}
        mcpServers={mcpServers}
        onText={setText}
        onFile={(file) => void onFile(file)}
        onUrl={setUrl}
        onServer={setServer}
      />
      {error ? (
        <p className="error-text add-toolkit__error" role="alert" data-testid="add-toolkit-error">
          {error}
        </p>
      ) : null}
      <div className="add-toolkit__actions">
        <button type="submit" className="btn btn-primary" disabled={busy} data-testid="add-toolkit-submit">
          {busy ? (source.startsWith('mcp') ? 'Listing tools…' : 'Reading…') : 'Add toolkit'}
        </button>
      </div>
    </form>
  );
}

/** What the form holds when it is submitted. */
interface FormFields {
  source: Source;
  name: string;
  text: string;
  fileName: string | null;
  url: string;
  server: string;
}

/** The request the form asks for, or what is missing, in words. */
function getCreateRequest(form: FormFields): Result<CreateToolkitRequest, string> {
  const { source, name, text, fileName, url, server } = form;
  const chosenName =
    name.trim() ||
    (source === 'mcp-url'
      ? getNameFromUrl(url.trim())
      : source === 'mcp-server'
        ? server
        : (fileName?.replace(/\.\w+$/, '') ?? ''));
  if (!chosenName) return err('Give the toolkit a name: it groups its tools in the palette.');
  if (source === 'paste' || source === 'upload') {
    if (!text.trim())
      return err(
        source === 'paste' ? 'Paste the declarations JSON first.' : 'Choose a declarations file first.',
      );
    return ok({ name: chosenName, text, ...(source === 'upload' && fileName ? { fileName } : {}) });
  }
  if (source === 'mcp-url') {
    if (!/^https?:\/\//i.test(url.trim()))
      return err('Give the MCP server URL starting with http:// or https://, e.g. https://example.org/mcp.');
    return ok({ name: chosenName, mcpUrl: url.trim() });
  }
  if (!server) return err('Pick a configured MCP server.');
  return ok({ name: chosenName, mcpServer: server });
}

interface SourceFieldsProps {
  source: Source;
  text: string;
  fileName: string | null;
  url: string;
  server: string;
  mcpServers: ConfiguredMcpServer[];
  onText(text: string): void;
  onFile(file: File | undefined): void;
  onUrl(url: string): void;
  onServer(server: string): void;
}

/** The field of the chosen source: pasted text, a file, an MCP server URL or a configured server. */
function SourceFields({
  source,
  text,
  fileName,
  url,
  server,
  mcpServers,
  onText,
  onFile,
  onUrl,
  onServer,
}: SourceFieldsProps) {
  return (
    <>
      {source === 'paste' ? (
        <label className="field">
          <span className="field__label">Declarations (JSON)</span>
          <textarea
            rows={10}
            spellCheck={false}
            value={text}
            onChange={(e) => onText(e.target.value)}
            placeholder={
              '{"functionDeclarations": [{"name": "…", "description": "…", "parameters": {…}}]}\nor an MCP tools/list result, OpenAI tools, Anthropic tools, or a list of {name, description, parameters}'
            }
            className="add-toolkit__text"
            data-testid="add-toolkit-text"
          />
        </label>
      ) : null}
      {source === 'upload' ? (
        <label className="field">
          <span className="field__label">Declarations file</span>
          <input
            type="file"
            accept=".json,application/json,text/plain"
            onChange={(e) => onFile(e.target.files?.[0])}
            data-testid="add-toolkit-file"
          />
          {fileName ? (
            <span className="muted field__hint">
              {fileName} · {text.length.toLocaleString('en')} characters read
            </span>
          ) : null}
        </label>
      ) : null}
      {source === 'mcp-url' ? (
        <label className="field">
          <span className="field__label">MCP server URL (Streamable HTTP)</span>
          <input
            type="url"
            value={url}
            onChange={(e) => onUrl(e.target.value)}
            placeholder="https://example.org/mcp"
            data-testid="add-toolkit-url"
          />
          <span className="muted field__hint">
            The Toolflow server connects to it and lists its tools; private and local addresses are refused
            unless the server allows them.
          </span>
        </label>
      ) : null}
      {source === 'mcp-server' ? (
        <label className="field">
          <span className="field__label">Configured MCP server</span>
          <select value={server} onChange={(e) => onServer(e.target.value)} data-testid="add-toolkit-server">
            {mcpServers.map((s) => (
              <option key={s.name} value={s.name}>
                {s.name}
                {s.description ? ` — ${s.description}` : ''}
              </option>
            ))}
          </select>
        </label>
      ) : null}
    </>
  );
}
