/**
 * A bare list of declarations, `[{name, description, parameters}]`: what many function-calling
 * libraries write. Read only (every provider format is a better target to write).
 */
import { joinPointer } from '../../result';
import { isJsonObject } from '../json-schema';
import { detectItems, getToolList, notToolObject, problem, type DeclarationShape } from './common';

/** Keys that mark another shape; a bare declaration has none of them. */
const OTHER_SHAPE_KEYS = [
  'type',
  'function',
  'input_schema',
  'inputSchema',
  'functionDeclarations',
  'function_declarations',
];

export const bareShape: DeclarationShape = {
  format: 'bare',
  label: 'a bare list of declarations ([{"name","description","parameters"}])',
  detect(input) {
    const items = getToolList(
      { value: input, path: '' },
      (v) => 'name' in v && 'parameters' in v && !OTHER_SHAPE_KEYS.some((k) => k in v),
    );
    if (!Array.isArray(items)) return { problems: [items] };
    return detectItems(items, (item) => {
      if (!isJsonObject(item.value)) return notToolObject(item);
      const tool = item.value;
      if (!('name' in tool)) return problem(joinPointer(item.path, 'name'), 'missing');
      const other = OTHER_SHAPE_KEYS.find((k) => k in tool);
      if (other)
        return problem(
          joinPointer(item.path, other),
          'present (a bare declaration has only name, description and parameters)',
        );
      return {
        path: item.path,
        name: tool.name,
        namePath: joinPointer(item.path, 'name'),
        title: tool.title,
        description: tool.description,
        descriptionPath: joinPointer(item.path, 'description'),
        schema: tool.parameters,
        schemaPath: joinPointer(item.path, 'parameters'),
        schemaDialect: 'json-schema',
      };
    });
  },
};
