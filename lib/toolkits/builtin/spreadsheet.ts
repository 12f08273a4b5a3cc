/**
 * Spreadsheet tools as an Excel MCP server exposes them (`read_data_from_excel`,
 * `write_data_to_excel`, … with the parameters that server declares). Cells are A1 references;
 * files are paths on the server that runs the tools.
 */
import type { JsonSchema, ToolDeclaration } from '../../tools/types';

const filepath: JsonSchema = { type: 'string', description: 'Path to Excel file' };
const sheetName: JsonSchema = { type: 'string', description: 'Name of worksheet' };
const cell = (description: string, fallback?: string): JsonSchema => ({
  type: 'string',
  description,
  pattern: '^[A-Za-z]{1,3}[1-9][0-9]*$',
  ...(fallback === undefined ? {} : { default: fallback }),
});
const range: JsonSchema = {
  type: 'string',
  description: 'Cell range such as "A1:D20"',
  pattern: '^[A-Za-z]{1,3}[1-9][0-9]*:[A-Za-z]{1,3}[1-9][0-9]*$',
};
const message = (description: string): JsonSchema => ({
  type: 'object',
  properties: { message: { type: 'string', description } },
  required: ['message'],
});

export const SPREADSHEET_TOOLS: ToolDeclaration[] = [
  {
    name: 'create_workbook',
    title: 'Create workbook · 新建工作簿',
    description: 'Create a new, empty Excel workbook with one worksheet',
    inputSchema: {
      type: 'object',
      required: ['filepath'],
      properties: { filepath: { ...filepath, description: 'Path of the workbook to create (.xlsx)' } },
    },
    outputSchema: {
      type: 'object',
      properties: { filepath: { type: 'string', description: 'Path of the created workbook' } },
      required: ['filepath'],
    },
  },
  {
    name: 'create_worksheet',
    title: 'Create worksheet · 新建工作表',
    description: 'Add a worksheet to an existing workbook',
    inputSchema: {
      type: 'object',
      required: ['filepath', 'sheet_name'],
      properties: { filepath, sheet_name: { ...sheetName, description: 'Name of the new worksheet' } },
    },
    outputSchema: message('What was created'),
  },
  {
    name: 'get_workbook_metadata',
    title: 'Workbook metadata · 查看工作簿信息',
    description: 'List the worksheets of a workbook with their used ranges',
    inputSchema: {
      type: 'object',
      required: ['filepath'],
      properties: {
        filepath,
        include_ranges: {
          type: 'boolean',
          description: 'Include the used range of each worksheet',
          default: false,
        },
      },
    },
    outputSchema: {
      type: 'object',
      properties: {
        sheets: {
          type: 'array',
          description: 'Worksheets in order',
          items: {
            type: 'object',
            properties: { name: { type: 'string' }, used_range: { type: 'string' } },
            required: ['name'],
          },
        },
      },
      required: ['sheets'],
    },
  },
  {
    name: 'read_data_from_excel',
    title: 'Read data from Excel · 读取表格数据',
    description: 'Read data from Excel worksheet with cell metadata including validation rules',
    inputSchema: {
      type: 'object',
      required: ['filepath', 'sheet_name'],
      properties: {
        filepath,
        sheet_name: sheetName,
        start_cell: cell('Starting cell', 'A1'),
        end_cell: cell('Ending cell; omit to read to the end of the used range'),
        preview_only: { type: 'boolean', description: 'Whether to return preview only', default: false },
      },
    },
    outputSchema: {
      type: 'object',
      properties: {
        range: { type: 'string', description: 'The range that was read' },
        rows: { type: 'array', description: 'Cell values row by row', items: { type: 'array', items: {} } },
      },
      required: ['range', 'rows'],
    },
  },
  {
    name: 'write_data_to_excel',
    title: 'Write data to Excel · 写入表格数据',
    description: 'Write data to Excel worksheet',
    inputSchema: {
      type: 'object',
      required: ['filepath', 'sheet_name', 'data'],
      properties: {
        filepath,
        sheet_name: sheetName,
        data: {
          type: 'array',
          description: 'List of lists containing data, one inner list per row',
          items: { type: 'array', items: { type: ['string', 'number', 'boolean', 'null'] } },
        },
        start_cell: cell('Cell to start writing to', 'A1'),
      },
    },
    outputSchema: message('What was written, and where'),
  },
  {
    name: 'apply_formula',
    title: 'Apply formula · 应用公式',
    description: 'Write an Excel formula into a cell after checking its syntax',
    inputSchema: {
      type: 'object',
      required: ['filepath', 'sheet_name', 'cell', 'formula'],
      properties: {
        filepath,
        sheet_name: sheetName,
        cell: cell('Target cell'),
        formula: {
          type: 'string',
          description: 'Formula starting with "=", e.g. "=SUM(B2:B10)"',
          pattern: '^=',
        },
      },
    },
    outputSchema: message('The result of applying the formula'),
  },
  {
    name: 'format_range',
    title: 'Format range · 设置单元格格式',
    description: 'Apply font, fill, border and number formatting to a range of cells',
    inputSchema: {
      type: 'object',
      required: ['filepath', 'sheet_name', 'start_cell'],
      properties: {
        filepath,
        sheet_name: sheetName,
        start_cell: cell('First cell of the range'),
        end_cell: cell('Last cell of the range; omit to format only start_cell'),
        bold: { type: 'boolean', description: 'Bold text', default: false },
        italic: { type: 'boolean', description: 'Italic text', default: false },
        font_color: {
          type: 'string',
          description: 'Font color as hex RGB, e.g. "FF0000"',
          pattern: '^[0-9A-Fa-f]{6}$',
        },
        bg_color: { type: 'string', description: 'Fill color as hex RGB', pattern: '^[0-9A-Fa-f]{6}$' },
        number_format: { type: 'string', description: 'Excel number format, e.g. "0.00%"' },
        border_style: {
          type: 'string',
          description: 'Border around each cell',
          enum: ['none', 'thin', 'medium', 'thick', 'double'],
          default: 'none',
        },
      },
    },
    outputSchema: message('What was formatted'),
  },
  {
    name: 'create_chart',
    title: 'Create chart · 创建图表',
    description: 'Create a chart from a data range and place it in a worksheet',
    inputSchema: {
      type: 'object',
      required: ['filepath', 'sheet_name', 'data_range', 'chart_type', 'target_cell'],
      properties: {
        filepath,
        sheet_name: sheetName,
        data_range: { ...range, description: 'Range with the data, headers in the first row' },
        chart_type: {
          type: 'string',
          description: 'Kind of chart',
          enum: ['line', 'bar', 'pie', 'scatter', 'area'],
        },
        target_cell: cell('Cell where the chart’s top-left corner goes'),
        title: { type: 'string', description: 'Chart title', default: '' },
        x_axis: { type: 'string', description: 'X axis label', default: '' },
        y_axis: { type: 'string', description: 'Y axis label', default: '' },
      },
    },
    outputSchema: message('Where the chart was placed'),
  },
  {
    name: 'create_pivot_table',
    title: 'Create pivot table · 创建数据透视表',
    description: 'Create a pivot table that summarises a data range',
    inputSchema: {
      type: 'object',
      required: ['filepath', 'sheet_name', 'data_range', 'rows', 'values'],
      properties: {
        filepath,
        sheet_name: sheetName,
        data_range: { ...range, description: 'Source range, headers in the first row' },
        rows: {
          type: 'array',
          description: 'Header names to group rows by',
          items: { type: 'string' },
          minItems: 1,
        },
        values: {
          type: 'array',
          description: 'Header names to aggregate',
          items: { type: 'string' },
          minItems: 1,
        },
        columns: {
          type: 'array',
          description: 'Header names to spread across columns',
          items: { type: 'string' },
          default: [],
        },
        agg_func: {
          type: 'string',
          description: 'Aggregation',
          enum: ['sum', 'mean', 'count', 'min', 'max'],
          default: 'mean',
        },
      },
    },
    outputSchema: message('Where the pivot table was written'),
  },
];
