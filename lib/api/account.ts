/** The calls of /api/auth/** (Better Auth) and /api/workspaces/**: accounts, workspaces, members. */
import { callApi, type CallOptions } from './client';

const segment = encodeURIComponent;

/** POST /api/auth/sign-in/email or /api/auth/sign-up/email */
export const signInOrUp = (
  mode: 'sign-in' | 'sign-up',
  body: { email: string; password: string; name?: string },
  opts: CallOptions = {},
) =>
  callApi<unknown>(`/api/auth/${mode}/email`, {
    ...opts,
    method: 'POST',
    json: body,
    what: mode === 'sign-in' ? 'Signing in' : 'Creating the account',
  });

/**
 * POST /api/auth/sign-in/social: starts single sign-on, answering the provider's address to send
 * the browser to. Back from the provider, Better Auth goes to `callbackURL` (a checked path on
 * this site), or to /sign-in?error=… .
 */
export const startSingleSignOn = (provider: string, callbackURL = '/', opts: CallOptions = {}) =>
  callApi<{ url: string }>('/api/auth/sign-in/social', {
    ...opts,
    method: 'POST',
    json: { provider, callbackURL, errorCallbackURL: '/sign-in' },
    what: 'Signing in',
  });

/** POST /api/auth/sign-out */
export const signOut = (opts: CallOptions = {}) =>
  callApi<unknown>('/api/auth/sign-out', { ...opts, method: 'POST', json: {}, what: 'Signing out' });

/** PUT /api/workspaces/current */
export const switchWorkspace = (id: string, opts: CallOptions = {}) =>
  callApi<{ current: string; role: string }>('/api/workspaces/current', {
    ...opts,
    method: 'PUT',
    json: { id },
    what: 'Switching workspaces',
  });

/** POST /api/workspaces */
export const createWorkspace = (name: string, opts: CallOptions = {}) =>
  callApi<{ workspace: { id: string; name: string } }>('/api/workspaces', {
    ...opts,
    method: 'POST',
    json: { name },
    what: 'Creating the workspace',
  });

/** POST /api/workspaces/:id/members */
export const inviteMember = (
  workspaceId: string,
  body: { email: string; role: string },
  opts: CallOptions = {},
) =>
  callApi<unknown>(`/api/workspaces/${segment(workspaceId)}/members`, {
    ...opts,
    method: 'POST',
    json: body,
    what: 'Inviting',
  });

/** PATCH /api/workspaces/:id/members/:userId */
export const setMemberRole = (workspaceId: string, userId: string, role: string, opts: CallOptions = {}) =>
  callApi<unknown>(`/api/workspaces/${segment(workspaceId)}/members/${segment(userId)}`, {
    ...opts,
    method: 'PATCH',
    json: { role },
    what: 'Changing the role',
  });

/** DELETE /api/workspaces/:id/members/:userId */
export const removeMember = (workspaceId: string, userId: string, opts: CallOptions = {}) =>
  callApi<unknown>(`/api/workspaces/${segment(workspaceId)}/members/${segment(userId)}`, {
    ...opts,
    method: 'DELETE',
    what: 'Removing the member',
  });

/** POST /api/auth/update-user (Better Auth): the account's name. */
export const updateProfile = (body: { name: string }, opts: CallOptions = {}) =>
  callApi<unknown>('/api/auth/update-user', {
    ...opts,
    method: 'POST',
    json: body,
    what: 'Saving your name',
  });

/** POST /api/auth/change-password (Better Auth); other sessions are signed out when asked. */
export const changePassword = (
  body: { currentPassword: string; newPassword: string; revokeOtherSessions: boolean },
  opts: CallOptions = {},
) =>
  callApi<unknown>('/api/auth/change-password', {
    ...opts,
    method: 'POST',
    json: body,
    what: 'Changing the password',
  });

/** POST /api/auth/revoke-other-sessions (Better Auth): every session but this browser's ends. */
export const revokeOtherSessions = (opts: CallOptions = {}) =>
  callApi<unknown>('/api/auth/revoke-other-sessions', {
    ...opts,
    method: 'POST',
    json: {},
    what: 'Signing out other sessions',
  });

/** An API token as listed (never its secret). */
export interface ApiTokenJson {
  id: string;
  name: string;
  start: string;
  workspaceId: string;
  workspaceName: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
}

/** POST /api/account/tokens: the secret comes back this once. */
export const createApiToken = (
  body: { name: string; workspaceId: string; expiresInDays?: number },
  opts: CallOptions = {},
) =>
  callApi<{ token: ApiTokenJson; secret: string }>('/api/account/tokens', {
    ...opts,
    method: 'POST',
    json: body,
    what: 'Making the token',
  });

/** DELETE /api/account/tokens/:id */
export const revokeApiToken = (id: string, opts: CallOptions = {}) =>
  callApi<unknown>(`/api/account/tokens/${segment(id)}`, {
    ...opts,
    method: 'DELETE',
    what: 'Revoking the token',
  });
