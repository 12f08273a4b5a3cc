/** Typed access to the planner's test tool declarations (MCP `tools/list` shape = canonical). */
import type { ToolDeclaration } from '../../tools/types';
import materials from './materials-tools.json';
import office from './office-tools.json';

/** Materials-science tools (bilingual descriptions, as the seed's users write them). */
export const materialsTools: ToolDeclaration[] = materials.tools as ToolDeclaration[];
/** Spreadsheet tools (as the excel-mcp server declares them) and git tools. */
export const officeTools: ToolDeclaration[] = office.tools as ToolDeclaration[];
/** Every fixture tool. */
export const allTools: ToolDeclaration[] = [...materialsTools, ...officeTools];
