/**
 * Ajv set up for the official OpenAI schemas in tests/fixtures/spec, as its README prescribes
 * (Ajv 2020, strict off, OpenAI's numeric formats as annotations). Tests read the schema JSON
 * with readFixtureJson and compile it here. Used by tests only.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

let ajv: Ajv2020 | undefined;

/** Compile one of the spec's schemas with the shared Ajv instance. */
export function compileSpecSchema(schema: object): ValidateFunction {
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    for (const format of ['unixtime', 'double', 'int64', 'float']) ajv.addFormat(format, true);
  }
  return ajv.compile(schema);
}

/** Ajv errors as readable lines, for assertion messages. */
export function describeErrors(validate: ValidateFunction): string {
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('\n');
}
