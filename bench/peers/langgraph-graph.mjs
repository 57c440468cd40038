// The graph LangGraph's API server runs in W9: a ReAct agent (createReactAgent) whose model is the
// same local OpenAI-compatible server adk's turns go to.
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';

const llm = new ChatOpenAI({ model: 'bench-model', apiKey: 'bench-key', configuration: { baseURL: process.env.MODEL_URL }, streaming: true });
export const graph = createReactAgent({ llm, tools: [] });
