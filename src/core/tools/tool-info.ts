/** A JSON Schema object (the `parameters` of a tool as the model sees them). */
export type JsonSchema = Record<string, unknown>;

/** What the model is told about a tool: all that models and callbacks need of it. */
export interface ToolInfo {
  name: string;
  description: string;
  parameters: JsonSchema;
}
