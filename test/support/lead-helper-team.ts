// A lead that asks its helper agent (an agent tool) twice, then answers: five model requests in
// one turn, each reporting `usage` (issue 32, item 4: usage counts the sub-agents' requests too).
export const LEAD_HELPER_TEAM = `version: 1
default: lead
models:
  default: { model: "gpt-test", base_url: "\${OPENAI_BASE_URL}", api_key_env: OPENAI_API_KEY }
agents:
  lead:
    description: Leads the work.
    instruction: You lead.
    tools: [{ agent: helper }]
  helper:
    description: Helps with a task.
    instruction: You help.
`;

type Request = { body: { messages: Array<{ role: string; content?: unknown }> } };

/** The scripted server's answers for LEAD_HELPER_TEAM; `final` is the lead's last reply. */
export function leadAsksHelperTwice(usage: { promptTokens: number; completionTokens: number }, final: (last: { role: string }) => string) {
  return (req: Request) => {
    if (String(req.body.messages[0]?.content ?? '').includes('You help')) return { content: 'helped', usage };
    const asked = req.body.messages.filter((m) => m.role === 'tool').length;
    if (asked < 2) return { toolCalls: [{ name: 'helper', arguments: { request: `part ${asked + 1}` } }], usage };
    return { content: final(req.body.messages.at(-1)!), usage };
  };
}
