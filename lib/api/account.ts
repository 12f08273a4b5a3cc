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
