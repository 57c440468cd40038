// LangGraph's own API server (@langchain/langgraph-api, what `langgraphjs dev` runs: in-memory
// threads and runs) serving langgraph-graph.mjs, for W9. Prints `started` once it listens.
import { fileURLToPath } from 'node:url';
import { startServer } from '@langchain/langgraph-api/server';

await startServer({
  port: Number(process.env.PORT),
  nWorkers: 10,
  host: '127.0.0.1',
  cwd: fileURLToPath(new URL('.', import.meta.url)),
  graphs: { agent: './langgraph-graph.mjs:graph' },
});
process.stdout.write('started\n');
