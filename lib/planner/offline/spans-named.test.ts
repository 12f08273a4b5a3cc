import { describe, expect, it } from 'vitest';
import type { ToolDeclaration } from '../../tools/types';
import { planOffline } from './plan';

/** A tool with the given properties (every one optional), as a server would declare it. */
function tool(name: string, description: string, properties: Record<string, object>): ToolDeclaration {
  return { name, description, inputSchema: { type: 'object', properties } };
}

const str = (description: string, extra: object = {}) => ({ type: 'string', description, ...extra });
const num = (description: string) => ({ type: 'integer', description });

const showRows = tool('show_rows', 'Show rows of a saved report', {
  reportId: str('ID of the saved report file'),
  startRow: num('First row to show (1-based)'),
  endRow: num('Last row to show (inclusive)'),
});
const listInvoices = tool('list_invoices', 'List the invoices issued in a period', {
  dateFrom: str('Earliest issue date (YYYY-MM-DD)'),
  dateTo: str('Latest issue date (YYYY-MM-DD)'),
});
const bookRoom = tool('book_room', 'Book a meeting room for a time slot', {
  room: str('Room code'),
  start_time: str('Start of the booking', { format: 'date-time' }),
  end_time: str('End of the booking', { format: 'date-time' }),
});
const restart = tool('restart_service', 'Restart a service running in a cluster', {
  service: str('Service to restart'),
  cluster: str('Cluster the service runs in'),
});
const addEvent = tool('add_event', 'Create an event in a calendar', {
  calendar: str('Calendar to add the event to'),
  eventId: str('Optional custom event ID'),
  summary: str('Title of the event'),
});

function args(task: string, tools: ToolDeclaration[]) {
  return planOffline({ task, tools }).calls.map((c) => c.args);
}

describe('the two ends of a span', () => {
  it('gives the first end to the parameter that starts the span and the second to the one that ends it', () => {
    expect(args('Show rows 40 to 75 of report r-118', [showRows])).toEqual([
      { reportId: 'r-118', startRow: 40, endRow: 75 },
    ]);
  });

  it('reads "between A and B" even where the clause is cut at "and"', () => {
    expect(args('List the invoices issued between 2024-01-05 and 2024-02-10', [listInvoices])).toEqual([
      { dateFrom: '2024-01-05', dateTo: '2024-02-10' },
    ]);
  });

  it('joins the day before a span of clock times to each end where the parameter takes a date-time', () => {
    expect(args('Book room B2 on 2025-05-02 from 9:15 to 10:00', [bookRoom])).toEqual([
      { room: 'B2', start_time: '2025-05-02T09:15:00', end_time: '2025-05-02T10:00:00' },
    ]);
  });

  it('leaves a span of numbers no word names unset', () => {
    const [set] = args('Show report r-118 from 40 to 75', [showRows]);
    expect(set).not.toHaveProperty('startRow');
    expect(set).not.toHaveProperty('endRow');
  });
});

describe('two dates for a period', () => {
  it('gives the earlier date to the parameter that starts the period and the later to the one that ends it', () => {
    expect(args('Invoices: the last one due 2024-02-10, the first one 2024-01-05', [listInvoices])).toEqual([
      { dateFrom: '2024-01-05', dateTo: '2024-02-10' },
    ]);
  });

  it('sets neither where a third date leaves open which two bound the period', () => {
    expect(args('List invoices of 2024-01-05, 2024-01-20 and 2024-02-10', [listInvoices])).toEqual([{}]);
  });
});

describe('a value written after the parameter name', () => {
  it('reads plain words after the names of the parameters', () => {
    expect(args('Restart service billing in cluster east', [restart])).toEqual([
      { service: 'billing', cluster: 'east' },
    ]);
  });

  it('reads nothing when the name is followed by two different values', () => {
    const [set] = args('Restart service billing in cluster east, or cluster west', [restart]);
    expect(set).not.toHaveProperty('cluster');
  });

  it('takes no next sentence after a colon', () => {
    expect(args('Restart the service: check it first', [restart])).toEqual([{}]);
  });

  it('takes no title of a thing being created as its id', () => {
    expect(args("Create an event 'Launch' in calendar team", [addEvent])).toEqual([
      { calendar: 'team', summary: 'Launch' },
    ]);
  });

  it('reads a name after the kind of thing it names, and no name after a kind of another thing', () => {
    const scale = tool('scale', 'Scale a deployment', {
      name: str('Name of the deployment to scale'),
      namespace: str('Namespace'),
      replicas: num('Number of replicas'),
    });
    expect(args('Scale deployment web in namespace prod to 3 replicas', [scale])).toEqual([
      { name: 'web', namespace: 'prod', replicas: 3 },
    ]);
    const chart = tool('draw_chart', 'Draw a chart of a sheet', {
      sheet_name: str('Sheet to chart'),
      chart_type: str('Kind of chart', { enum: ['pie', 'bar'] }),
    });
    expect(args('Draw a pie chart', [chart])).toEqual([{ chart_type: 'pie' }]);
  });

  it("reads a value the parameter's description gives as an example, written next to the thing it names", () => {
    const event = tool('new_event', 'Create an event in a calendar', {
      calendarId: str("ID of the calendar (use 'primary' for the main calendar)"),
      summary: str('Title of the event'),
    });
    expect(args("Add an event 'Launch' to my primary calendar", [event])).toEqual([
      { calendarId: 'primary', summary: 'Launch' },
    ]);
    expect(args("Add an event 'Launch', the primary goal", [event])).toEqual([{ summary: 'Launch' }]);
  });

  it('reads a choice a text parameter lists in its description, where it says it holds one', () => {
    const scale = tool('scale_set', 'Scale a workload', {
      resourceType: str('Resource type to scale (deployment, replicaset, statefulset)'),
      columns: str('Columns to show (name, replicas)'),
      replicas: num('Number of replicas'),
    });
    expect(args('Scale the statefulset to 2 replicas and show the name', [scale])).toEqual([
      { resourceType: 'statefulset', replicas: 2 },
    ]);
  });

  it('gives the two ends of a move written with "from" and "into" to the source and the target', () => {
    const merge = tool('open_merge', 'Open a merge request', {
      source_branch: str('Branch with the changes'),
      target_branch: str('Branch to merge into'),
    });
    expect(args('Open a merge request from hotfix-7 into main', [merge])).toEqual([
      { source_branch: 'hotfix-7', target_branch: 'main' },
    ]);
  });

  it('reads no value that goes on past its first word ("from Gare du Nord")', () => {
    const route = tool('route', 'Directions between two places', {
      origin: str('Where to start'),
      destination: str('Where to go'),
    });
    expect(args('Get directions from Gare du Nord to Louvre', [route])).toEqual([{}]);
  });
});
