/**
 * Git tools as a Git MCP server exposes them (`git_status`, whose `path` defaults to
 * the current directory). Each tool works on one repository on the machine that runs it.
 */
import type { JsonSchema, ToolDeclaration } from '../../tools/types';

const repoPath: JsonSchema = {
  type: 'string',
  description: 'Path to the Git repository; defaults to the current directory',
  default: '.',
};
const text = (description: string): JsonSchema => ({
  type: 'object',
  properties: { output: { type: 'string', description } },
  required: ['output'],
});
const contextLines: JsonSchema = {
  type: 'integer',
  description: 'Lines of context around each change',
  default: 3,
  minimum: 0,
};

export const GIT_TOOLS: ToolDeclaration[] = [
  {
    name: 'git_status',
    title: 'Git status · 查看仓库状态',
    description: 'Show the working tree status of a repository: branch, staged, unstaged and untracked files',
    inputSchema: { type: 'object', required: [], properties: { repo_path: repoPath } },
    outputSchema: text('Output of git status'),
  },
  {
    name: 'git_diff_unstaged',
    title: 'Unstaged changes · 查看未暂存的改动',
    description: 'Show changes in the working directory that are not staged yet',
    inputSchema: {
      type: 'object',
      required: [],
      properties: { repo_path: repoPath, context_lines: contextLines },
    },
    outputSchema: text('Unified diff'),
  },
  {
    name: 'git_diff_staged',
    title: 'Staged changes · 查看已暂存的改动',
    description: 'Show changes that are staged for the next commit',
    inputSchema: {
      type: 'object',
      required: [],
      properties: { repo_path: repoPath, context_lines: contextLines },
    },
    outputSchema: text('Unified diff'),
  },
  {
    name: 'git_diff',
    title: 'Diff against a branch · 与分支比较差异',
    description: 'Show the differences between the working tree and a branch or commit',
    inputSchema: {
      type: 'object',
      required: ['target'],
      properties: {
        repo_path: repoPath,
        target: { type: 'string', description: 'Branch name, tag or commit to compare with' },
        context_lines: contextLines,
      },
    },
    outputSchema: text('Unified diff'),
  },
  {
    name: 'git_add',
    title: 'Stage files · 暂存文件',
    description: 'Stage files for the next commit',
    inputSchema: {
      type: 'object',
      required: ['files'],
      properties: {
        repo_path: repoPath,
        files: {
          type: 'array',
          description: 'Paths to stage, relative to the repository root',
          items: { type: 'string' },
          minItems: 1,
        },
      },
    },
    outputSchema: text('What was staged'),
  },
  {
    name: 'git_commit',
    title: 'Commit · 提交改动',
    description: 'Record the staged changes as a new commit',
    inputSchema: {
      type: 'object',
      required: ['message'],
      properties: {
        repo_path: repoPath,
        message: { type: 'string', description: 'Commit message', minLength: 1 },
      },
    },
    outputSchema: {
      type: 'object',
      properties: {
        commit: { type: 'string', description: 'Hash of the new commit', pattern: '^[0-9a-f]{7,64}$' },
      },
      required: ['commit'],
    },
  },
  {
    name: 'git_log',
    title: 'Commit history · 查看提交历史',
    description: 'Show the commit history, newest first',
    inputSchema: {
      type: 'object',
      required: [],
      properties: {
        repo_path: repoPath,
        max_count: { type: 'integer', description: 'Most commits to show', default: 10, minimum: 1 },
        start_timestamp: {
          type: 'string',
          description: 'Only commits after this date (ISO 8601 or a git date such as "2 weeks ago")',
        },
        end_timestamp: { type: 'string', description: 'Only commits before this date' },
      },
    },
    outputSchema: {
      type: 'object',
      properties: {
        commits: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              hash: { type: 'string' },
              author: { type: 'string' },
              date: { type: 'string' },
              message: { type: 'string' },
            },
            required: ['hash', 'author', 'date', 'message'],
          },
        },
      },
      required: ['commits'],
    },
  },
  {
    name: 'git_create_branch',
    title: 'Create branch · 创建分支',
    description: 'Create a new branch',
    inputSchema: {
      type: 'object',
      required: ['branch_name'],
      properties: {
        repo_path: repoPath,
        branch_name: { type: 'string', description: 'Name of the new branch' },
        base_branch: {
          type: 'string',
          description: 'Branch or commit to start from; omit for the current HEAD',
        },
      },
    },
    outputSchema: text('What was created'),
  },
  {
    name: 'git_checkout',
    title: 'Switch branch · 切换分支',
    description: 'Switch to a branch',
    inputSchema: {
      type: 'object',
      required: ['branch_name'],
      properties: {
        repo_path: repoPath,
        branch_name: { type: 'string', description: 'Branch to switch to' },
      },
    },
    outputSchema: text('Result of the checkout'),
  },
  {
    name: 'git_show',
    title: 'Show commit · 查看提交内容',
    description: 'Show the contents and metadata of a commit',
    inputSchema: {
      type: 'object',
      required: ['revision'],
      properties: {
        repo_path: repoPath,
        revision: { type: 'string', description: 'Commit hash, branch or tag' },
      },
    },
    outputSchema: text('Commit metadata and diff'),
  },
];
