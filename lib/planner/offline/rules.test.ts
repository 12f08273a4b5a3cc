/**
 * The offline planner's reading rules on small declarations made up for each rule (not the
 * built-in toolkits): the rules must hold for tools they were not written against.
 */
import { describe, expect, it } from 'vitest';
import type { JsonSchema, ToolDeclaration } from '../../tools/types';
import { planOffline } from './plan';

function tool(
  name: string,
  description: string,
  properties: Record<string, JsonSchema>,
  required: string[] = [],
  outputSchema?: JsonSchema,
): ToolDeclaration {
  return {
    name,
    description,
    inputSchema: { type: 'object', properties, required },
    ...(outputSchema ? { outputSchema } : {}),
  };
}

const str = (description = ''): JsonSchema => ({ type: 'string', ...(description ? { description } : {}) });
const num = (description: string): JsonSchema => ({ type: 'number', description });

function plan(task: string, tools: ToolDeclaration[]) {
  const { calls, notes } = planOffline({ task, tools });
  return { steps: calls.map((c) => [c.tool, c.args]), notes };
}

describe('values and where they go', () => {
  const chart = tool(
    'make_chart',
    'Draw a chart of a range of a sheet',
    {
      book: str('Workbook file path'),
      sheet_name: str('Sheet name'),
      range: str('Cells to plot'),
      anchor_cell: str('Cell to put the chart at'),
    },
    ['book', 'sheet_name', 'range'],
  );

  it('puts a range and a cell where ranges and cells go, and never a cell reference into a name', () => {
    expect(plan('Plot A2:C9 of ./t.xlsx at H1', [chart]).steps).toEqual([
      ['make_chart', { book: './t.xlsx', range: 'A2:C9', anchor_cell: 'H1' }],
    ]);
  });

  it('splits a range into the two corner cells of a tool that takes no range', () => {
    const clear = tool('clear_cells', 'Clear a block of cells', {
      first_cell: str('First cell'),
      last_cell: str('Last cell'),
    });
    expect(plan('Clear B2:D4', [clear]).steps).toEqual([
      ['clear_cells', { first_cell: 'B2', last_cell: 'D4' }],
    ]);
  });

  it('gives a formula-like parameter element symbols and formulas, and Chinese material names', () => {
    const crystal = tool('make_crystal', 'Make a crystal', {
      composition: str('Chemical composition'),
      label: str('A label'),
    });
    expect(plan('Make a crystal of SrTiO3', [crystal]).steps).toEqual([
      ['make_crystal', { composition: 'SrTiO3' }],
    ]);
    expect(plan('构建石墨烯晶体', [crystal]).steps).toEqual([['make_crystal', { composition: 'C' }]]);
  });

  it('converts a number to the unit its parameter names, and refuses one of another dimension', () => {
    const press = tool('compress', 'Compress a sample', {
      pressure: num('Pressure in MPa'),
      hold: num('Hold time in seconds'),
    });
    expect(plan('Compress it at 0.2 GPa for 2 minutes', [press]).steps).toEqual([
      ['compress', { pressure: 200, hold: 120 }],
    ]);
    expect(plan('Compress it at 300 K', [press])).toEqual({
      steps: [['compress', {}]],
      notes: ['The value 300 matched no parameter of compress; set it by hand if it matters.'],
    });
  });

  it('does not take an amount of time for a time step', () => {
    const simulate = tool('simulate', 'Simulate the system', {
      dt: num('Time step in femtoseconds'),
      temperature: num('Temperature in kelvin'),
    });
    expect(plan('Simulate 10 ps at 450 K', [simulate]).steps).toEqual([['simulate', { temperature: 450 }]]);
    expect(plan('Simulate at 450 K with a time step of 2 fs', [simulate]).steps).toEqual([
      ['simulate', { dt: 2, temperature: 450 }],
    ]);
  });

  it('leaves a bare number without a word that names its parameter', () => {
    const resize = tool(
      'resize',
      'Resize an image',
      { width: num('Width in pixels'), height: num('Height in pixels') },
      ['width', 'height'],
    );
    expect(plan('Resize the image to 640', [resize])).toEqual({
      steps: [['resize', {}]],
      notes: [
        'The value 640 matched no parameter of resize; set it by hand if it matters.',
        'step_1 (resize): the task does not say the values of width, height; they are left for you to fill in.',
      ],
    });
  });

  it('fills parameters described as first and second with the numbers in order', () => {
    const add = tool(
      'sum',
      'Returns the sum of two numbers',
      { x: num('First number'), y: num('Second number') },
      ['x', 'y'],
    );
    expect(plan('Sum 4 and 9', [add]).steps).toEqual([['sum', { x: 4, y: 9 }]]);
  });

  it('builds one item of a list of objects when the words name every required field', () => {
    const tag = tool('add_tags', 'Add tags to records', {
      tags: {
        type: 'array',
        items: {
          type: 'object',
          properties: { key: str('The tag key'), value: str('The tag value') },
          required: ['key', 'value'],
        },
      },
    });
    expect(plan("Add tags with the key 'env' and the value 'prod'", [tag]).steps).toEqual([
      ['add_tags', { tags: [{ key: 'env', value: 'prod' }] }],
    ]);
  });
});

describe('placing several values at once', () => {
  const relax = tool(
    'relax',
    'Relax a structure',
    { input_structure: str('Input structure file'), model_path: str('Path to the DPA model file') },
    ['input_structure', 'model_path'],
  );

  it('puts what the action is done to in the main input and what it is done with elsewhere (把 X 用 Y)', () => {
    // 结构 right after the model file pulls it towards input_structure; 把 and 用 say otherwise.
    expect(plan('把 ./Ni.cif 用 ./dpa.pt 做结构弛豫', [relax]).steps).toEqual([
      ['relax', { input_structure: './Ni.cif', model_path: './dpa.pt' }],
    ]);
  });

  it('puts a path after "in" where the work happens, not into a list of files', () => {
    const lint = tool('lint', 'Lint files', {
      project: str('Project directory'),
      files: { type: 'array', items: { type: 'string' }, description: 'Files to lint' },
    });
    expect(plan('Lint a.ts and b.ts in ./svc', [lint]).steps).toEqual([
      ['lint', { project: './svc', files: ['a.ts', 'b.ts'] }],
    ]);
  });
});

describe('values shared between steps', () => {
  const project = str('Path to the project; defaults to the current directory');
  const build = tool('build', 'Build the project', { project: { ...project, default: '.' } });
  const test = tool('test', 'Run the tests of the project', {
    project: { ...project, default: '.' },
    pattern: str('Test name pattern'),
  });

  it('applies a setting given once to every step with that parameter, before or after', () => {
    expect(plan('Build ~/app and then run the tests', [build, test]).steps).toEqual([
      ['build', { project: '~/app' }],
      ['test', { project: '~/app' }],
    ]);
    expect(plan('Build, then run the tests in ~/app', [build, test]).steps).toEqual([
      ['build', { project: '~/app' }],
      ['test', { project: '~/app' }],
    ]);
  });

  it('never copies a value into something a step creates', () => {
    const copyTable = tool(
      'copy_table',
      'Copy a table',
      { table: str('Source table name'), new_table: str('Name of the new table') },
      ['table', 'new_table'],
    );
    expect(plan('Copy the table called Orders, then copy the table called Items', [copyTable]).steps).toEqual(
      [
        ['copy_table', { table: 'Orders' }],
        ['copy_table', { table: 'Items' }],
      ],
    );
  });
});

describe('"then … it / its / the result" between tools without output schemas', () => {
  const fetchPage = tool('fetch_page', 'Fetch a web page', { url: str('Page URL') }, ['url']);
  const summarise = tool('summarise', 'Summarise a text', { text: str('Text to summarise') }, ['text']);
  const mkdir = tool('make_dir', 'Create a directory', { dir: str('Directory path') }, ['dir']);
  const listDir = tool('list_dir', 'List a directory', { dir: str('Directory path') }, ['dir']);

  it('wires the untyped result into the next step’s main input', () => {
    expect(plan('Fetch https://example.org/a, then summarise it', [fetchPage, summarise]).steps).toEqual([
      ['fetch_page', { url: 'https://example.org/a' }],
      ['summarise', { text: '{{step_1.result}}' }],
    ]);
    expect(plan('获取 https://example.org/a，然后总结其结果', [fetchPage, summarise]).steps[1]).toEqual([
      'summarise',
      { text: '{{step_1.result}}' },
    ]);
  });

  it('wires an action after "then" that has no object of its own, and nothing after a bare "and"', () => {
    expect(plan('Fetch https://example.org/a, then summarise', [fetchPage, summarise]).steps[1]).toEqual([
      'summarise',
      { text: '{{step_1.result}}' },
    ]);
    expect(plan('Fetch https://example.org/a and summarise', [fetchPage, summarise]).steps[1]).toEqual([
      'summarise',
      {},
    ]);
  });

  it('reads "it" as the thing a tool that changes something worked on, not its status', () => {
    expect(plan('Create the directory ./out and then list it', [mkdir, listDir]).steps).toEqual([
      ['make_dir', { dir: './out' }],
      ['list_dir', { dir: './out' }],
    ]);
  });
});

describe('Chinese tasks against tools declared in English', () => {
  it('meets the tools through the vocabulary of tool words', () => {
    const tools = [
      tool('delete_record', 'Delete a record', { id: str('Record id') }, ['id']),
      tool('search_records', 'Search the records', { query: str('Search text') }, ['query']),
    ];
    expect(plan("搜索 'alpha'，然后删除记录 'r-17'", tools).steps).toEqual([
      ['search_records', { query: 'alpha' }],
      ['delete_record', { id: 'r-17' }],
    ]);
  });
});

describe('repositories, titles and SQL on tools written for this test', () => {
  const issue = tool(
    'open_ticket',
    'Open a ticket in a repository',
    {
      owner: str('Repository owner'),
      repo: str('Repository name'),
      title: str('Ticket title'),
      branch: str('Branch the ticket is about'),
    },
    ['owner', 'repo', 'title'],
  );
  const query = tool('run_select', 'Run a read-only query', { sql: str('SELECT SQL query to execute') }, [
    'sql',
  ]);

  it('splits owner/repo into the owner and the repository, the one the words call a place', () => {
    expect(
      plan("Open a ticket about branch fix/login in acme/site titled 'Login broken'", [issue]).steps,
    ).toEqual([['open_ticket', { owner: 'acme', repo: 'site', title: 'Login broken', branch: 'fix/login' }]]);
  });

  it('puts a value after "titled" only where a title goes', () => {
    const noTitle = tool('make_branch', 'Create a branch', { branch: str('Name for the new branch') }, [
      'branch',
    ]);
    expect(plan("Create a branch titled 'Release 2.1'", [noTitle]).steps).toEqual([['make_branch', {}]]);
  });

  it('gives a parameter that names its statements no other statement', () => {
    expect(plan('Run SELECT * FROM users LIMIT 10', [query]).steps).toEqual([
      ['run_select', { sql: 'SELECT * FROM users LIMIT 10' }],
    ]);
    expect(plan('Run DELETE FROM users WHERE id = 3', [query]).steps).toEqual([['run_select', {}]]);
  });
});

describe('patterns, sort orders and removal on tools written for this test', () => {
  const find = tool(
    'find_files',
    'Find files by name',
    { root: str('Directory to search'), pattern: str('Glob to match'), title: str('Report title') },
    ['root', 'pattern'],
  );
  const listTickets = tool('list_tickets', 'List tickets', {
    order: { type: 'string', enum: ['asc', 'desc'], description: 'Sort direction' },
  });
  const dropNote = tool('delete_note', 'Delete a note', { id: str('Note id') }, ['id']);
  const addNote = tool('add_note', 'Add a note', { id: str('Note id') }, ['id']);

  it('puts a wildcard pattern where a pattern goes, not into a path or a title', () => {
    expect(plan('Find *.md under /srv/docs', [find]).steps).toEqual([
      ['find_files', { root: '/srv/docs', pattern: '*.md' }],
    ]);
  });

  it('reads 倒序 and 升序 as sort directions', () => {
    expect(plan('列出工单，倒序', [listTickets]).steps).toEqual([['list_tickets', { order: 'desc' }]]);
    expect(plan('列出工单，升序', [listTickets]).steps).toEqual([['list_tickets', { order: 'asc' }]]);
  });

  it('reads "remove" as delete', () => {
    expect(plan("Remove the note 'n-7'", [addNote, dropNote]).steps).toEqual([
      ['delete_note', { id: 'n-7' }],
    ]);
  });
});

describe('spans and replacements on tools written for this test', () => {
  const sweep = tool(
    'sweep',
    'Sweep a sample over a range of temperatures',
    {
      sample: str('Sample id'),
      temperatures: {
        type: 'array',
        items: { type: 'number' },
        minItems: 3,
        maxItems: 3,
        description: 'Start, stop and step of the temperatures, in kelvin',
      },
      window: {
        type: 'array',
        items: { type: 'number' },
        minItems: 2,
        maxItems: 2,
        description: 'Lower and upper strain window',
      },
    },
    ['sample'],
  );
  const patch = tool(
    'patch_text',
    'Edit a text file: replace text',
    {
      file: str('File path'),
      changes: {
        type: 'array',
        items: {
          type: 'object',
          properties: { search: str('Text to find'), replace: str('Text to put instead') },
          required: ['search', 'replace'],
        },
      },
    },
    ['file', 'changes'],
  );

  it('reads "from A to B in steps of C" into the list its words or its unit name', () => {
    expect(
      plan("Sweep 's-1' from 300 to 900 K in steps of 50 K, strain window from 0.98 to 1.02", [sweep]).steps,
    ).toEqual([['sweep', { sample: 's-1', temperatures: [300, 900, 50], window: [0.98, 1.02] }]]);
  });

  it('leaves a span that is not named and has no unit for the person', () => {
    expect(plan("Sweep 's-1' from 3 to 9", [sweep]).steps).toEqual([['sweep', { sample: 's-1' }]]);
  });

  it('reads "replace A with B" and 把 A 改成 B into one old/new item', () => {
    expect(plan("In ./a.txt replace 'x=1' with 'x=2'", [patch]).steps).toEqual([
      ['patch_text', { file: './a.txt', changes: [{ search: 'x=1', replace: 'x=2' }] }],
    ]);
    expect(plan("在 ./a.txt 里把 'x=1' 改成 'x=2'", [patch]).steps).toEqual([
      ['patch_text', { file: './a.txt', changes: [{ search: 'x=1', replace: 'x=2' }] }],
    ]);
  });
});

describe('"it" and "make" on tools written for this test', () => {
  const getRepo = tool(
    'get_repo',
    'Get a repository',
    { owner: str('Repository owner'), repo: str('Repository name') },
    ['owner', 'repo'],
  );
  const starRepo = tool(
    'star_repo',
    'Star a repository',
    { owner: str('Repository owner'), repo: str('Repository name') },
    ['owner', 'repo'],
  );
  const makeFolder = tool('create_folder', 'Create a folder', { path: str('Folder path') }, ['path']);
  const listFolder = tool('list_folder', 'List a folder', { path: str('Folder path') }, ['path']);

  it('keeps the owner and repository the text gave for "… it" instead of wiring the result there', () => {
    expect(plan('Get acme/site and then star it', [getRepo, starRepo]).steps).toEqual([
      ['get_repo', { owner: 'acme', repo: 'site' }],
      ['star_repo', { owner: 'acme', repo: 'site' }],
    ]);
  });

  it('reads "make" as create', () => {
    expect(plan('Make a folder ./out', [listFolder, makeFolder]).steps).toEqual([
      ['create_folder', { path: './out' }],
    ]);
  });
});

describe('a value that is itself the action, on tools written for this test', () => {
  const style = tool(
    'style_cells',
    'Style cells bold',
    { start_cell: str('First cell, e.g. A1'), bold: { type: 'boolean', description: 'Bold' } },
    ['start_cell'],
  );
  const setFormula = tool(
    'set_formula',
    'Set a spreadsheet formula',
    { target_cell: str('Target cell, e.g. A1'), formula_text: str('Excel formula, e.g. "=SUM(A1:A3)"') },
    ['target_cell', 'formula_text'],
  );

  it('makes "then put =SUM(…) in B14" the step of the one tool that takes a formula', () => {
    expect(plan('Make A1 bold, then put =SUM(B2:B13) in B14', [style, setFormula]).steps).toEqual([
      ['style_cells', { start_cell: 'A1', bold: true }],
      ['set_formula', { target_cell: 'B14', formula_text: '=SUM(B2:B13)' }],
    ]);
  });
});

describe('identifiers, list items and enum words are set only when the text gives them', () => {
  const ticket = tool('open_ticket', 'Open a new ticket in a queue', {
    queueId: str('ID of the queue'),
    ticketId: str('Optional custom ticket ID'),
    title: str('Title of the ticket'),
    watchers: { type: 'array', items: { type: 'string' }, description: 'List of queue IDs to notify' },
    labels: {
      type: 'array',
      items: { type: 'string', pattern: '^[^=]+=[^=]+$' },
      description: 'Labels as key=value',
    },
    notify: { type: 'string', enum: ['all', 'none'], description: 'Whom to notify' },
  });
  const find = tool('find_tickets', 'Search the tickets of a queue', {
    queueId: str('Queue to search'),
    query: str('Free text search query'),
  });

  it('gives no identifier a quoted title, a title with spaces, or a word not named as that id', () => {
    const { steps } = plan("Open a ticket 'Printer jammed' at 16:00", [ticket]);
    const args = steps[0][1] as Record<string, unknown>;
    expect(args.queueId).toBeUndefined();
    expect(args.ticketId).toBeUndefined();
    expect(args.watchers).toBeUndefined();
    expect(args.labels).toBeUndefined();
    const search = plan("Search my support queue for 'offsite'", [find]).steps[0][1] as Record<
      string,
      unknown
    >;
    expect(search.queueId).toBeUndefined();
  });

  it('still takes an identifier right after the word for what it identifies', () => {
    const search = plan("Search queue 'ops-7' for 'printer'", [find]).steps[0][1] as Record<string, unknown>;
    expect(search.queueId).toBe('ops-7');
  });

  it('reads no quantifier enum value out of a hyphenated word', () => {
    const args = plan("Open an all-day ticket 'Holiday'", [ticket]).steps[0][1] as Record<string, unknown>;
    expect(args.notify).toBeUndefined();
  });

  it('sets no value offered as one of two alternatives, and says so', () => {
    const book = tool('book_table', 'Book a restaurant table', {
      guests: num('Number of guests'),
      city: str('City'),
    });
    const { steps, notes } = plan('Book a table in Lyon for 4 or 5 guests', [book]);
    expect((steps[0][1] as Record<string, unknown>).guests).toBeUndefined();
    expect(notes.some((n) => n.includes('4') && n.includes('5') && n.includes('choose'))).toBe(true);
    expect(plan('Book a table in Lyon for 4 guests', [book]).steps[0][1]).toMatchObject({ guests: 4 });
  });

  it('puts a point on a map where a point goes, never its first number into a radius', () => {
    const around = tool('traffic_around', 'Traffic around a point', {
      center: str('Center point, e.g. 39.9,116.4'),
      radius: num('Radius in metres'),
    });
    expect(plan('Traffic within 800 m of 31.2304,121.4737', [around]).steps[0][1]).toEqual({
      center: '31.2304,121.4737',
      radius: 800,
    });
    expect(plan('Traffic around 31.2304,121.4737', [around]).steps[0][1]).toEqual({
      center: '31.2304,121.4737',
    });
  });

  it('keeps patterns listed together for the one parameter named before them', () => {
    const bundle = (filter: JsonSchema) =>
      tool('bundle_dir', 'Bundle a directory', {
        dir: str('Directory to bundle'),
        onlyPatterns: filter,
        skipPatterns: str('Glob patterns to exclude, comma-separated'),
      });
    const joined = bundle(str('Glob patterns to include, comma-separated'));
    expect(plan('Bundle /srv/app including only lib/** and docs/**', [joined]).steps[0][1]).toEqual({
      dir: '/srv/app',
      onlyPatterns: 'lib/**,docs/**',
    });
    const listed = bundle({
      type: 'array',
      items: { type: 'string' },
      description: 'Glob patterns to include',
    });
    expect(plan('Bundle /srv/app including only lib/**, docs/**', [listed]).steps[0][1]).toEqual({
      dir: '/srv/app',
      onlyPatterns: ['lib/**', 'docs/**'],
    });
    const single = bundle(str('Glob pattern to include'));
    const { steps, notes } = plan('Bundle /srv/app including only lib/** and docs/**', [single]);
    expect(steps[0][1]).toEqual({ dir: '/srv/app' });
    expect(notes.some((n) => n.includes('lib/**') && n.includes('docs/**'))).toBe(true);
  });

  it('wires what a find step finds into the id of that thing, not of the place searched', () => {
    const findNotes = tool('find-notes', 'Search notes by text', { query: str('Text to search') }, ['query']);
    const dropNote = tool(
      'remove-note',
      'Delete a note',
      { folderId: str('ID of the folder'), noteId: str('ID of the note') },
      ['folderId', 'noteId'],
    );
    const { steps } = plan("Find the note 'groceries', then delete it", [findNotes, dropNote]);
    expect(steps[1]).toEqual(['remove-note', { noteId: '{{step_1.result}}' }]);
  });
});
