// LangGraph doing each workload: createReactAgent (prebuilt), createSwarm for the transfer, and a
// fan-out StateGraph for the parallel run. Tokens are read with streamMode 'messages'.
import { setMaxListeners } from 'node:events';
import { Annotation, END, START, StateGraph, messagesStateReducer } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { createHandoffTool, createSwarm } from '@langchain/langgraph-swarm';
import { tool } from '@langchain/core/tools';
import { HumanMessage } from '@langchain/core/messages';
import { z } from 'zod';
import { FakeChatModel } from '../fakes/langchain-model.mjs';
import { Script, pieces, textReply, toolReply } from '../fakes/script.mjs';

export const name = 'langgraph';

// Eight parallel branches add more abort listeners to one signal than Node's default warns about.
setMaxListeners(64);

const input = () => ({ messages: [new HumanMessage('go')] });

/** Streams a graph run and returns the number of text characters received. */
async function consume(graph, options = {}) {
  let n = 0;
  const events = await graph.stream(input(), { streamMode: 'messages', ...options });
  for await (const item of events) {
    // With `subgraphs: true` each item is [namespace, [chunk, metadata]].
    const [chunk] = options.subgraphs ? item[1] : item;
    if (typeof chunk.content === 'string' && chunk._getType?.() === 'ai') n += chunk.content.length;
  }
  return n;
}

export function stream(chunks) {
  const script = new Script(() => textReply(pieces(chunks)));
  const agent = createReactAgent({ llm: new FakeChatModel(script), tools: [] });
  return async () => {
    script.reset();
    return consume(agent);
  };
}

export function toolLoop(turns) {
  const script = new Script((call) => (call < turns ? toolReply('noop') : textReply(['done'])));
  const noop = tool(async () => 'ok', { name: 'noop', description: 'does nothing', schema: z.object({}) });
  const agent = createReactAgent({ llm: new FakeChatModel(script), tools: [noop] });
  return async () => {
    script.reset();
    const n = await consume(agent, { recursionLimit: turns * 2 + 10 });
    if (script.call !== turns + 1) throw new Error(`langgraph made ${script.call} model calls, expected ${turns + 1}`);
    return n;
  };
}

export function transfer(chunks) {
  const a = createReactAgent({
    llm: new FakeChatModel(new Script(() => toolReply('transfer_to_b'))),
    tools: [createHandoffTool({ agentName: 'B' })],
    name: 'A',
  });
  const b = createReactAgent({ llm: new FakeChatModel(new Script(() => textReply(pieces(chunks)))), tools: [], name: 'B' });
  const swarm = createSwarm({ agents: [a, b], defaultActiveAgent: 'A' }).compile();
  return () => consume(swarm, { subgraphs: true });
}

/** Eight ReAct agents as parallel branches of one graph (one superstep). */
export function parallel(children, delayMs) {
  const State = Annotation.Root({ messages: Annotation({ reducer: messagesStateReducer, default: () => [] }) });
  const graph = new StateGraph(State);
  for (let i = 0; i < children; i++) {
    const agent = createReactAgent({ llm: new FakeChatModel(new Script(() => ({ chunks: ['done'], delayMs }))), tools: [] });
    graph.addNode(`c${i}`, agent).addEdge(START, `c${i}`).addEdge(`c${i}`, END);
  }
  const app = graph.compile();
  return async () => {
    const out = await app.invoke(input());
    const answers = out.messages.filter((m) => m._getType() === 'ai').length;
    if (answers !== children) throw new Error(`langgraph parallel produced ${answers} answers, expected ${children}`);
    return answers;
  };
}
