import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOLKITS } from '../../toolkits/builtin';
import type { ToolDeclaration } from '../../tools/types';
import { planOffline } from './plan';

const convertTime: ToolDeclaration = {
  name: 'convert_time',
  description: 'Convert time between timezones',
  inputSchema: {
    type: 'object',
    properties: {
      source_timezone: {
        type: 'string',
        description: "Source IANA timezone name (e.g., 'America/New_York')",
      },
      time: { type: 'string', description: 'Time to convert in 24-hour format (HH:MM)' },
      target_timezone: { type: 'string', description: "Target IANA timezone name (e.g., 'Asia/Tokyo')" },
    },
    required: ['source_timezone', 'time', 'target_timezone'],
  },
};

const sendEmail: ToolDeclaration = {
  name: 'send_email',
  description: 'Sends a new email',
  inputSchema: {
    type: 'object',
    properties: {
      to: { type: 'array', items: { type: 'string' }, description: 'List of recipient email addresses' },
      subject: { type: 'string', description: 'Email subject' },
      body: { type: 'string', description: 'Email body content' },
      attachments: { type: 'array', items: { type: 'string' }, description: 'List of file paths to attach' },
    },
    required: ['to', 'subject', 'body'],
  },
};

function plan(task: string, tools: ToolDeclaration[]) {
  const { calls, notes } = planOffline({ task, tools });
  return { steps: calls.map((c) => [c.tool, c.args]), notes };
}

describe('a value is set only when the text makes its place clear', () => {
  it('reads a clock time and gives each zone the end "from" and "to" say', () => {
    expect(plan('Convert 9:15 PM from America/Los_Angeles to Europe/Berlin', [convertTime]).steps).toEqual([
      [
        'convert_time',
        { source_timezone: 'America/Los_Angeles', time: '21:15', target_timezone: 'Europe/Berlin' },
      ],
    ]);
  });

  it('leaves both ends unset, and says so, when nothing says which zone is which', () => {
    const { steps, notes } = plan("If it's 07:45 in Sydney, what time is it in Asia/Kolkata?", [convertTime]);
    expect(steps).toEqual([['convert_time', { time: '07:45' }]]);
    expect(notes.join('\n')).toMatch(/does not make clear/);
  });

  it('puts an address only where addresses go, never its domain in a file list', () => {
    const { steps } = plan("Email ana@example.org with subject 'Q3' and body 'Up 12%.'", [sendEmail]);
    expect(steps).toEqual([['send_email', { to: ['ana@example.org'], subject: 'Q3', body: 'Up 12%.' }]]);
  });
});

describe('the same steps with one toolkit ticked or all of them', () => {
  const all = BUILTIN_TOOLKITS.flatMap((kit) => kit.tools);
  const kit = (name: string) => BUILTIN_TOOLKITS.find((k) => k.name.startsWith(name))!.tools;
  it.each([
    ['Read the file /tmp/a.txt, then write its content to /tmp/b.txt', 'Files'],
    ["Show the status of the repository at /repo, then commit with message 'fix'", 'Git'],
    ["In ./sales.xlsx, make a bar chart of A1:B3 on sheet 'Q1' and put it at E2", 'Spreadsheet'],
  ])('%s', (task, toolkit) => {
    const one = plan(task, kit(toolkit)).steps;
    expect(one.length).toBeGreaterThan(0);
    expect(plan(task, all).steps).toEqual(one);
  });
});
