import { describe, expect, it } from 'vitest';
import type { ToolDeclaration } from '../../tools/types';
import { findLiterals } from './literals';
import { planOffline } from './plan';

/** A tool with the given properties (every one optional), as a server would declare it. */
function tool(name: string, description: string, properties: Record<string, object>): ToolDeclaration {
  return { name, description, inputSchema: { type: 'object', properties } };
}

const str = (description: string, extra: object = {}) => ({ type: 'string', description, ...extra });
const num = (description: string) => ({ type: 'number', description });
const strings = (description: string) => ({ type: 'array', items: { type: 'string' }, description });

const outlineSite = tool('outline_site', 'Outline the pages of a website', {
  url: str('', { format: 'uri' }),
  topic: str('Only pages about this topic'),
});
const fetchOrder = tool('fetch_order', 'Fetch the state of a shipping order', {
  id: str(''),
});
const findTalks = tool('find_talks', 'Find conference talks by topic', {
  query: str('What the talks are about'),
  tracks: strings('Conference track filter(s) (e.g. `ml.systems`)'),
});
const convertBook = tool('convert_book', 'Convert a local e-book file to plain text', {
  filePath: str('Path to the local file'),
  keepFor: num('How long to keep the result cached'),
  ttlMs: { type: 'number' },
  maxAge: { type: 'number' },
});
const watchPage = tool('watch_page', 'Watch a web page for changes', {
  page: { type: 'string' },
  callbackUrl: str('Where to post each change'),
});

function run(task: string, tools: ToolDeclaration[]) {
  return planOffline({ task, tools });
}

describe('values a parameter must not take', () => {
  it('leaves a URL parameter unset for a host written without its scheme, and says why', () => {
    const plan = run('outline shop.example.com for anything about returns', [outlineSite]);
    expect(plan.calls.map((c) => c.tool)).toEqual(['outline_site']);
    expect(plan.calls[0].args.url).toBeUndefined();
    expect(plan.notes.join('\n')).toMatch(/"shop\.example\.com" has no scheme/);
    expect(run('outline https://shop.example.com for returns', [outlineSite]).calls[0].args.url).toBe(
      'https://shop.example.com',
    );
  });

  it('reads an identifier joined by hyphens whole', () => {
    const uuid = '0b7e4d2a-91c3-4f5e-8a6b-c2d1e0f9a8b7';
    expect(findLiterals(`order ${uuid} please`).map((l) => l.value)).toEqual([uuid]);
    expect(findLiterals('ticket 7f3e9a1c-x2 is open').map((l) => l.value)).toEqual(['7f3e9a1c-x2']);
    expect(run(`What is the state of shipping order ${uuid}?`, [fetchOrder]).calls[0].args).toEqual({
      id: uuid,
    });
  });

  it('puts in a list only items of the kind it already holds', () => {
    const plan = run('Find talks on "caching for inference" in track ml.systems', [findTalks]);
    expect(plan.calls[0].args.tracks).toEqual(['ml.systems']);
  });

  it('gives a count of things only to a parameter that counts them', () => {
    expect(findLiterals('最多转换 40 页')[0]).toMatchObject({ value: 40, counted: 'page' });
    const plan = run('把本地文件 /books/旅行.epub 转成纯文本，最多转换 40 页', [convertBook]);
    expect(plan.calls[0].args).toEqual({ filePath: '/books/旅行.epub' });
  });

  it('sets a URL to deliver to only when the text names it', () => {
    const page = run('watch the page on https://shop.example.com/prices', [watchPage]).calls[0].args;
    expect(page.callbackUrl).toBeUndefined();
    const named = run(
      'watch https://shop.example.com/prices and post each change to the callback https://hooks.example.com/in',
      [watchPage],
    ).calls[0].args;
    expect(named.callbackUrl).toBe('https://hooks.example.com/in');
  });
});
