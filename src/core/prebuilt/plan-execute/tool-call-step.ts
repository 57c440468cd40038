import { callModel } from '../../agents/model-step.js';
import type { RunContext } from '../../agents/run-context.js';
import type { AgentEvent } from '../../agents/types.js';
import { toError } from '../../errors.js';
import type { ChatModel, ToolChoice } from '../../models/chat-model.js';
import { defaultRetryPolicy, type RetryPolicy } from '../../models/retry.js';
import { assistantMessage, userMessage, type Message, type ToolCall } from '../../schema/message.js';
import { toolCallFromText, toolReminder } from './text-tool-call.js';
import { MessageStream } from '../../schema/message-stream.js';
import type { ToolInfo } from '../../tools/tool.js';
import { budgeted } from '../../agents/run-budget.js';

export interface ToolCallStepEnv {
  model: ChatModel;
  agentName: string;
  ctx: RunContext;
  emit(e: AgentEvent): void;
  retry?: Partial<RetryPolicy> | undefined;
  /** Emit nothing of the reply itself: the caller shows what the call means once it is parsed. */
  quiet?: boolean | undefined;
}

/**
 * One model call forced to use a tool (planner, replanner). As in Eino, the event shows the first
 * tool call's arguments as the assistant's text; the call itself is returned for parsing.
 */
export async function callForcedTool(env: ToolCallStepEnv, messages: Message[], tools: ToolInfo[], toolChoice: ToolChoice): Promise<ToolCall & { usage?: Message['usage'] }> {
  const forward = (e: AgentEvent): void => {
    const v = e.output?.message;
    if (!v) return env.emit(e);
    if (env.quiet) return;
    if (v.stream) return env.emit({ ...e, output: { message: { ...v, stream: argumentsAsContent(v.stream) } } });
    const call = v.message?.toolCalls?.[0];
    if (call) env.emit({ ...e, output: { message: { ...v, message: assistantMessage(call.function.arguments) } } });
  };
  // Planner and replanner calls count against the run's budget as every agent's do.
  const ask = (msgs: Message[]) =>
    budgeted(env.ctx, env.model, () => callModel(
      {
        model: env.model,
        agentName: env.agentName,
        streaming: env.ctx.enableStreaming,
        retry: { ...defaultRetryPolicy, ...env.retry },
        signal: env.ctx.signal,
        emit: forward,
        callIds: env.ctx.callIds,
        callbacks: env.ctx.callbacks,
        runPath: env.ctx.runPath,
        secrets: env.ctx.secrets,
      },
      msgs,
      { tools, toolChoice },
    ));
  let reply = await ask(messages);
  let call = reply.toolCalls?.[0] ?? toolCallFromText(reply.content, tools, toolChoice, `call_text_${env.agentName}`);
  if (!call) {
    // A server that ignores tool_choice answered in text: ask once more, saying how to answer.
    reply = await ask([...messages, assistantMessage(reply.content), userMessage(toolReminder(tools))]);
    call = reply.toolCalls?.[0] ?? toolCallFromText(reply.content, tools, toolChoice, `call_text_${env.agentName}`);
  }
  if (!call) {
    const names = tools.map((t) => t.name).join(', ');
    throw new Error(
      `no tool call: ${env.model.modelName} answered in text twice although a call to ${names} was required (its server may ignore tool_choice: on llama.cpp start llama-server with --jinja, on vLLM use --enable-auto-tool-choice with a --tool-call-parser), or use a model that calls tools`,
    );
  }
  return reply.usage ? { ...call, usage: reply.usage } : call;
}

/** A stream of the first tool call's argument text, failing when the source fails. */
function argumentsAsContent(source: MessageStream): MessageStream {
  const out = new MessageStream();
  void (async () => {
    try {
      for await (const chunk of source) {
        const args = chunk.toolCalls?.find((c) => c.index === 0)?.function?.arguments;
        if (args) out.push({ role: 'assistant', content: args });
      }
      out.close();
    } catch (e) {
      out.close(toError(e));
    }
  })();
  return out;
}
