import { StdioClientTransport, type StdioServerParameters } from '@modelcontextprotocol/client/stdio';
import { deserializeMessage, type JSONRPCMessage } from '@modelcontextprotocol/client';

/**
 * Splits a server's stdout into JSON-RPC lines in time linear in its size. The SDK's ReadBuffer
 * concatenates the whole pending message on every 64 KB chunk, which is quadratic: a 64 MB result
 * would copy ~32 GB. This keeps the chunks and joins them once, when the line ends.
 */
export class LinearReadBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Chunks already searched for a newline (none had one). */
  private searched = 0;

  constructor(private readonly maxBytes: number) {}

  append(chunk: Buffer): void {
    if (this.size + chunk.length > this.maxBytes && !chunk.includes(10)) {
      this.clear();
      // The SDK's wording: McpConnection recognises it.
      throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBytes} bytes`);
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  readMessage(): JSONRPCMessage | null {
    for (let i = this.searched; i < this.chunks.length; i++) {
      const at = this.chunks[i].indexOf(10);
      if (at < 0) continue;
      const line = Buffer.concat([...this.chunks.slice(0, i), this.chunks[i].subarray(0, at)]);
      const rest = this.chunks[i].subarray(at + 1);
      this.chunks = rest.length ? [rest, ...this.chunks.slice(i + 1)] : this.chunks.slice(i + 1);
      this.size -= line.length + 1;
      this.searched = 0;
      return deserializeMessage(line.toString('utf8').replace(/\r$/, ''));
    }
    this.searched = this.chunks.length;
    return null;
  }

  clear(): void {
    this.chunks = [];
    this.size = 0;
    this.searched = 0;
  }
}

/** The SDK's stdio transport with the linear read buffer in place of its own. */
export function stdioTransport(params: StdioServerParameters, maxMessageBytes: number): StdioClientTransport {
  const transport = new StdioClientTransport({ ...params, maxBufferSize: maxMessageBytes });
  // A private field of the pinned SDK (@modelcontextprotocol/client 2.4.0); the test of large results fails loudly if it moves.
  (transport as unknown as { _readBuffer: LinearReadBuffer })._readBuffer = new LinearReadBuffer(maxMessageBytes);
  return transport;
}
