/** Kept apart from plan-client so the home page does not load the planner's code for a label. */

/**
 * The planner picker's short name for the configured model: "openai-chat (gpt-4.1-mini at
 * https://…/v1)" becomes "openai-chat (gpt-4.1-mini)"; the endpoint is configuration, not choice.
 */
export function getModelLabel(description: string): string {
  return description.replace(/ at [^()]*\)/, ')');
}
