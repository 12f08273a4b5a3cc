/** The calls of /api/workflows/** and /api/shares/**: workflows, their history and share links. */
import { callApi, type CallOptions } from './client';
import type {
  AcceptShareResponse,
  CreateShareRequest,
  CreateShareResponse,
  CreateWorkflowRequest,
  ImportWorkflowResponse,
  Jsonified,
  LabelRevisionResponse,
  RenameWorkflowRequest,
  RestoreRevisionResponse,
  RevisionListResponse,
  RevisionResponse,
  ShareListResponse,
  UpdateWorkflowRequest,
  SavedWorkflowResponse,
  WorkflowResponse,
} from './types';

const segment = encodeURIComponent;

/** POST /api/workflows */
export const createWorkflow = (body: CreateWorkflowRequest, opts: CallOptions = {}) =>
  callApi<Jsonified<WorkflowResponse>>('/api/workflows', {
    ...opts,
    method: 'POST',
    json: body,
    what: 'Creating the workflow',
  });

/** PUT /api/workflows/[id]; a stale version fails with `conflict:version` and the server's copy in `body.current`. */
export const saveWorkflow = (id: string, body: UpdateWorkflowRequest, opts: CallOptions = {}) =>
  callApi<Jsonified<SavedWorkflowResponse>>(`/api/workflows/${segment(id)}`, {
    ...opts,
    method: 'PUT',
    json: body,
    what: 'Saving',
  });

/** PATCH /api/workflows/[id]: a new name, on top of `version` (`conflict:version` when stale). */
export const renameWorkflow = (id: string, body: RenameWorkflowRequest, opts: CallOptions = {}) =>
  callApi<Jsonified<SavedWorkflowResponse>>(`/api/workflows/${segment(id)}`, {
    ...opts,
    method: 'PATCH',
    json: body,
    what: 'Renaming',
  });

/** POST /api/workflows/[id]/duplicate: a copy of my own ("Copy of …"). */
export const duplicateWorkflow = (id: string, opts: CallOptions = {}) =>
  callApi<Jsonified<WorkflowResponse>>(`/api/workflows/${segment(id)}/duplicate`, {
    ...opts,
    method: 'POST',
    what: 'Duplicating',
  });

/** DELETE /api/workflows/[id], with its history, share links and runs. */
export const deleteWorkflow = (id: string, opts: CallOptions = {}) =>
  callApi<null>(`/api/workflows/${segment(id)}`, {
    ...opts,
    method: 'DELETE',
    what: 'Deleting',
  });

/** POST /api/workflows/import with the text of an export file. */
export const importWorkflow = (fileText: string, opts: CallOptions = {}) =>
  callApi<Jsonified<ImportWorkflowResponse>>('/api/workflows/import', {
    ...opts,
    method: 'POST',
    text: fileText,
    what: 'Importing the file',
  });

// Revisions

/** GET /api/workflows/[id]/revisions */
export const listRevisions = (id: string, opts: CallOptions = {}) =>
  callApi<Jsonified<RevisionListResponse>>(`/api/workflows/${segment(id)}/revisions`, {
    ...opts,
    what: 'Loading the history',
  });

/**
 * GET /api/workflows/[id]/revisions/[version], compared with the entry before it, or with
 * `against` (a version, or `current`).
 */
export const getRevision = (
  id: string,
  version: number,
  { against, ...opts }: CallOptions & { against?: number | 'current' } = {},
) =>
  callApi<Jsonified<RevisionResponse>>(
    `/api/workflows/${segment(id)}/revisions/${version}${against === undefined ? '' : `?against=${against}`}`,
    { ...opts, what: `Opening version ${version}` },
  );

/** PATCH /api/workflows/[id]/revisions/[version]: name it, or clear its name with null. */
export const labelRevision = (id: string, version: number, label: string | null, opts: CallOptions = {}) =>
  callApi<Jsonified<LabelRevisionResponse>>(`/api/workflows/${segment(id)}/revisions/${version}`, {
    ...opts,
    method: 'PATCH',
    json: { label },
    what: `Naming version ${version}`,
  });

/** POST /api/workflows/[id]/revisions/[version]/restore, on top of `heldVersion`. */
export const restoreRevision = (id: string, version: number, heldVersion: number, opts: CallOptions = {}) =>
  callApi<Jsonified<RestoreRevisionResponse>>(`/api/workflows/${segment(id)}/revisions/${version}/restore`, {
    ...opts,
    method: 'POST',
    json: { version: heldVersion },
    what: `Restoring version ${version}`,
  });

// Share links

/** GET /api/workflows/[id]/shares */
export const listShares = (id: string, opts: CallOptions = {}) =>
  callApi<Jsonified<ShareListResponse>>(`/api/workflows/${segment(id)}/shares`, {
    ...opts,
    what: 'Loading the links',
  });

/** POST /api/workflows/[id]/shares; secrets not yet acknowledged fail with `unprocessable:secrets`. */
export const createShare = (id: string, body: CreateShareRequest, opts: CallOptions = {}) =>
  callApi<Jsonified<CreateShareResponse>>(`/api/workflows/${segment(id)}/shares`, {
    ...opts,
    method: 'POST',
    json: body,
    what: 'Creating the link',
  });

/** DELETE /api/workflows/[id]/shares/[shareId] */
export const revokeShare = (id: string, shareId: string, opts: CallOptions = {}) =>
  callApi<null>(`/api/workflows/${segment(id)}/shares/${segment(shareId)}`, {
    ...opts,
    method: 'DELETE',
    what: 'Revoking the link',
  });

/** POST /api/shares/[token]/fork: a copy of the shared workflow of my own. */
export const forkShared = (token: string, opts: CallOptions = {}) =>
  callApi<Jsonified<WorkflowResponse>>(`/api/shares/${segment(token)}/fork`, {
    ...opts,
    method: 'POST',
    what: 'Forking',
  });

/** POST /api/shares/[token]/accept: take up a "can edit" link (signed in); where to edit. */
export const acceptShare = (token: string, opts: CallOptions = {}) =>
  callApi<Jsonified<AcceptShareResponse>>(`/api/shares/${segment(token)}/accept`, {
    ...opts,
    method: 'POST',
    what: 'Opening the link',
  });
