/**
 * The planner (docs/design.md §6): one loop for every model, the offline planner, the text protocol and
 * follow-up edits. Pure: the model sits behind the injected ModelPort (lib/llm provides the
 * OpenAI ones).
 */
export type {
  ConversationMessage,
  ConversationToolCall,
  ModelErrorKind,
  ModelEvent,
  ModelPort,
  ModelTurnRequest,
  PlanEvent,
  PlannedEdge,
  PlannedStep,
  PlannerInput,
  PlannerOptions,
  PlanOperation,
  StopReason,
  ToolProtocol,
} from './types';
export { runPlanner, DEFAULT_MAX_ITERATIONS, MAX_STEPS_PER_RUN } from './loop';
export { applyPlanOperations, createPlannedDocument } from './operations';
export { buildSystemPrompt, describeWorkflow, type SystemPromptInput } from './prompt';
export { parseToolArguments, repairJson, type ArgumentCut, type ParsedArguments } from './arguments';
export { createToolCallScanner, parseToolCallText, type TextToolCall } from './text-protocol';
export { EDIT_TOOLS, EDIT_TOOL_NAMES, isEditToolName } from './edit-tools';
export { createOfflinePort, OFFLINE_PLANNER } from './offline/port';
export { planOffline, type OfflinePlan, type OfflineCall, type OfflinePlanInput } from './offline/plan';
