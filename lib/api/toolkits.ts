/** The calls of /api/toolkits/**. */
import { callApi, type CallOptions } from './client';
import type {
  ConfiguredMcpServer,
  CreateToolkitRequest,
  Jsonified,
  RefreshToolkitResponse,
  Toolkit,
  ToolkitListResponse,
  ToolkitResponse,
} from './types';

const segment = encodeURIComponent;

/** GET /api/toolkits */
export const listToolkits = (opts: CallOptions = {}) =>
  callApi<Jsonified<ToolkitListResponse>>('/api/toolkits', { ...opts, what: 'Loading toolkits' });

/** POST /api/toolkits */
export const createToolkit = (body: CreateToolkitRequest, opts: CallOptions = {}) =>
  callApi<Jsonified<ToolkitResponse>>('/api/toolkits', {
    ...opts,
    method: 'POST',
    json: body,
    what: 'Adding the toolkit',
  });

/** POST /api/toolkits/[id]/refresh: re-read from its source, or from new file text. */
export const refreshToolkit = (id: string, text?: string, opts: CallOptions = {}) =>
  callApi<Jsonified<RefreshToolkitResponse>>(`/api/toolkits/${segment(id)}/refresh`, {
    ...opts,
    method: 'POST',
    ...(text === undefined ? {} : { json: { text } }),
    what: 'Refreshing the toolkit',
  });

/** DELETE /api/toolkits/[id] */
export const deleteToolkit = (id: string, opts: CallOptions = {}) =>
  callApi<null>(`/api/toolkits/${segment(id)}`, { ...opts, method: 'DELETE', what: 'Deleting the toolkit' });

export type { ConfiguredMcpServer };
/** A toolkit as the browser receives it. */
export type ToolkitSummary = Jsonified<Toolkit>;
