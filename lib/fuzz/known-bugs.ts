/**
 * Bugs the fuzzers found in code owned elsewhere, not fixed yet. Each entry names the minimal
 * counterexample and the seed that found it; the targets skip exactly that input class unless
 * `includeKnownBugs` is set (`npm run fuzz -- --include-known-bugs`), so the suites stay green
 * and the bug stays one flag away from reproducing. Delete an entry (and its guard) with the fix.
 */
export interface KnownBug {
  id: string;
  where: string;
  summary: string;
  /** Minimal input, and how the fuzzer found it. */
  counterexample: string;
}

export const KNOWN_BUGS: readonly KnownBug[] = [
  {
    id: 'gemini-proto-property',
    where:
      'lib/tools/gemini-schema.ts toGeminiSchema (`converted[name] = …`) and fromGeminiSchema (`properties[name] = …`)',
    summary:
      'A parameter named "__proto__" is silently dropped when a tool is rendered for Gemini (OpenAPI subset) and when a Gemini file is read: assigning that key replaces the prototype instead of adding a property.',
    counterexample:
      'renderTools([{name:"a",description:"",inputSchema:{type:"object",properties:{"__proto__":{type:"string"}}}}], "gemini") → parameters.properties is {} (target declarations, seed 1).',
  },
  {
    id: 'gemini-root-composition',
    where: 'lib/tools/render.ts renderGeminiDeclarations (`hasProperties(tool.inputSchema)`)',
    summary:
      'A tool whose parameters are declared through a root "allOf" or "$ref" (no "properties" at the root) is rendered for Gemini with no parameters at all; toGeminiSchema itself converts it correctly, the check in front of it only looks at root "properties".',
    counterexample:
      'renderTools([{name:"x",description:"",inputSchema:{type:"object",allOf:[{properties:{x:{type:"string"}}}]}}], "gemini") → {functionDeclarations:[{name:"x"}]} (target declarations, seed 1).',
  },
  {
    id: 'strict-proto-property',
    where: 'lib/tools/strict-schema.ts convert (`converted[name] = propSchema`)',
    summary:
      'OpenAI strict conversion drops a parameter named "__proto__" from "properties" but keeps it in "required", so the strict schema requires a property it does not define (OpenAI refuses such a schema).',
    counterexample:
      'toStrictSchema({type:"object",properties:{"__proto__":{type:"string"}}}) → {properties:{}, required:["__proto__"], …} (target declarations, seed 3).',
  },
  {
    id: 'strict-recursive-ref-siblings',
    where: 'lib/tools/strict-schema.ts convert (inlining a `$ref` that has sibling keywords)',
    summary:
      'A reference with a keyword beside it that points at one of its own ancestors ({"$ref":"#","description":"d"}, or {"$ref":"#/properties/a","default":[]} inside property a) is inlined again and again until the stack overflows: toStrictSchema, renderTools(…, {strict}) and `toolflow tools --strict` throw RangeError instead of reporting the recursion.',
    counterexample:
      'toStrictSchema({type:"object",properties:{p:{$ref:"#",description:"d"}}}) → RangeError: Maximum call stack size exceeded (target declarations, seed 2; again with #/properties/a, seed 1932798545).',
  },
  {
    id: 'gemini-allof-recursion',
    where: 'lib/tools/gemini-schema.ts mergeAllOf / convertNode',
    summary:
      'An "allOf" branch that refers to the root ({"allOf":[{"$ref":"#"}]}) is merged into itself until the stack overflows: toGeminiSchema and renderTools(…, "gemini") throw RangeError instead of reporting the recursion (a plain {"$ref":"#"} is handled).',
    counterexample:
      'toGeminiSchema({type:"object",properties:{a:{allOf:[{$ref:"#"}]}}}) → RangeError: Maximum call stack size exceeded (target declarations-mutated, seed 6).',
  },
  {
    id: 'empty-parameter-name',
    where:
      'public/schemas/workflow.v1.schema.json (input/output parameter "name" has minLength 1) against lib/tools/import.ts and lib/workflow/params.ts, which accept and emit a property named ""',
    summary:
      'A tool whose input (or output) schema has a property named "" (legal JSON Schema, accepted by the declarations importer) exports a node with an input_parameters (output_parameters) entry named "", which the v1 schema refuses: exportWorkflow writes a file importWorkflow rejects, so export → import breaks. The same happens to an arg named "" on a node whose tool is not declared (it becomes a placeholder parameter). Either refuse such names on import or allow them in the schema.',
    counterexample:
      'tool {name:"t",description:"",inputSchema:{type:"object",properties:{"":{type:"string"}}}} in a one-step plan → export → validateExport gives /nodes/0/input_parameters/0/name schema_minLength (target exports, seed 1).',
  },
  {
    id: 'v0-prototype-path',
    where:
      'lib/workflow/import.ts migrateV0 toOriginalPath (`V0_ROOT[collection]`, `byCollection[collection][segments[3]]`)',
    summary:
      'Mapping an issue path back into a version-0 file looks names up on plain objects, so a field named like an Object.prototype member is "renamed" to the inherited function: an unknown root field "constructor" in a v0 file is reported at "/function Object() { [native code] }".',
    counterexample:
      'validateExport({format:"toolflow.workflow",version:0,id:"w",name:"n",task:"",systemParameters:[],steps:[],edges:[],tools:[],toString:1}) → [{path:"/function toString() { [native code] }", …}] (target exports-mutated, seed 3).',
  },
  {
    id: 'planner-proto-arg',
    where:
      'lib/planner/loop.ts wireReferences (`values[input] = value`) and updateStep (`values[key] = value`)',
    summary:
      'A model argument named "__proto__" disappears: assigning it sets the prototype of the argument record, so it is neither kept as an arg, nor reported as an unknown arg; a declared "__proto__" parameter is zero-filled as if the model never sent it.',
    counterexample:
      'a native call {"__proto__": false} to a tool without parameters → step.args {}, unknownArgs [] (target planner, seed 1).',
  },
  {
    id: 'drift-dangling-edge',
    where:
      'lib/workflow/commands.ts addNode (a changed declaration replaces the snapshot for every node of that tool) with lib/workflow/export.ts (edges exported as they are)',
    summary:
      'When a follow-up plan (or the palette) adds a node of a tool whose declaration changed since the workflow was built, the new declaration replaces the snapshot for the existing nodes too; an existing edge into an input the new declaration no longer has stays in the document, and the export writes it, so importWorkflow refuses the exported file (unknown_port at /edges/i/target_input). The same happens when the run declares a tool that existing nodes called while it was undeclared. Drift should be reported, not turned into an unimportable export.',
    counterexample:
      "a document with node step_1 of tool T {inputs: a} and an edge into step_1.a; runPlanner with tools [T' without a] adding a step of T'; applyPlanOperations → export → validateExport gives unknown_port (target planner, seed 2).",
  },
  {
    id: 'v0-path-assumes-v0-keys',
    where: 'lib/workflow/import.ts migrateV0 toOriginalPath',
    summary:
      'A file that says "version": 0 but uses the v1 key names (e.g. "nodes" instead of "steps") is migrated correctly, but its issue paths are mapped back as if it used the v0 names: a problem in /nodes/0/position is reported at "/steps/0/position", which the file does not have.',
    counterexample:
      'a valid v1 export with "version" set to 0 and an extra member "" in nodes[0].position → issue path "/steps/0/position/" (target exports-mutated, seed 380135068).',
  },
];

/** True when `id` is a known bug whose inputs the targets should leave out. */
export function isAvoided(id: string, includeKnownBugs: boolean): boolean {
  return !includeKnownBugs && KNOWN_BUGS.some((b) => b.id === id);
}
