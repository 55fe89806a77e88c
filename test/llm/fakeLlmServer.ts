import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A scripted answer: the model's text with its usage numbers, or an HTTP failure. */
export type FakeReply =
  | {
      text: string;
      usage?: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
      model?: string;
      toolCalls?: { id: string; name: string; input: unknown }[];
      delayMs?: number;
    }
  | { status: number; message: string; headers?: Record<string, string>; delayMs?: number };

export interface RecordedRequest {
  api: 'openai' | 'anthropic';
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

/**
 * An LLM API on 127.0.0.1 speaking OpenAI chat completions (`POST /v1/chat/completions`) and
 * Anthropic messages (`POST /v1/messages`). Each test queues replies; each request takes the next
 * one (an empty queue answers 500) and is recorded with its parsed body.
 */
export class FakeLlmServer {
  readonly requests: RecordedRequest[] = [];
  /** Every reply sent, in order (with the usage numbers the client was told). */
  readonly served: FakeReply[] = [];
  private readonly queue: FakeReply[] = [];
  private responder: ((request: RecordedRequest) => FakeReply | undefined) | undefined;
  private server: Server | undefined;
  private port = 0;

  /** For the Anthropic SDK's `baseURL`. */
  get anthropicBaseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** For the OpenAI SDK's `baseURL`. */
  get openAiBaseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  enqueue(...replies: FakeReply[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Answers every request the queue does not, from what it asks (e.g. by its schema name). */
  respondWith(responder: (request: RecordedRequest) => FakeReply | undefined): this {
    this.responder = responder;
    return this;
  }

  get pending(): number {
    return this.queue.length;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(error) } }));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = (req.url ?? '').split('?')[0] ?? '';
    const api = path.endsWith('/chat/completions')
      ? 'openai'
      : path.endsWith('/messages')
        ? 'anthropic'
        : undefined;
    if (req.method !== 'POST' || !api) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no route ${req.method} ${path}` } }));
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
    const recorded: RecordedRequest = { api, path, headers: req.headers, body };
    this.requests.push(recorded);
    const reply = this.queue.shift() ??
      this.responder?.(recorded) ?? { status: 500, message: 'fake server: no scripted reply left' };
    this.served.push(reply);

    if (reply.delayMs) {
      const closed = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), reply.delayMs);
        res.once('close', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      if (closed) return;
    }
    const model = typeof body.model === 'string' ? body.model : 'unknown';
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(errorBody(api, reply.status, reply.message)));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(api === 'openai' ? openAiBody(reply, model) : anthropicBody(reply, model)));
  }
}

type TextReply = Extract<FakeReply, { text: string }>;

function openAiBody(reply: TextReply, model: string) {
  const usage = reply.usage ?? { input: 10, output: 5 };
  const cached = usage.cacheRead ?? 0;
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: reply.model ?? model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text,
          refusal: null,
          ...(reply.toolCalls
            ? {
                tool_calls: reply.toolCalls.map((call) => ({
                  id: call.id,
                  type: 'function',
                  function: { name: call.name, arguments: JSON.stringify(call.input) },
                })),
              }
            : {}),
        },
        finish_reason: reply.toolCalls ? 'tool_calls' : 'stop',
        logprobs: null,
      },
    ],
    usage: {
      prompt_tokens: usage.input + cached,
      completion_tokens: usage.output,
      total_tokens: usage.input + cached + usage.output,
      prompt_tokens_details: { cached_tokens: cached },
    },
  };
}

function anthropicBody(reply: TextReply, model: string) {
  const usage = reply.usage ?? { input: 10, output: 5 };
  return {
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model: reply.model ?? model,
    content: [
      ...(reply.text ? [{ type: 'text', text: reply.text }] : []),
      ...(reply.toolCalls ?? []).map((call) => ({
        type: 'tool_use',
        id: call.id,
        name: call.name,
        input: call.input,
      })),
    ],
    stop_reason: reply.toolCalls ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: usage.input,
      output_tokens: usage.output,
      cache_read_input_tokens: usage.cacheRead ?? 0,
      cache_creation_input_tokens: usage.cacheWrite ?? 0,
    },
  };
}

function errorBody(api: 'openai' | 'anthropic', status: number, message: string) {
  if (api === 'openai') {
    return { error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'server_error', code: null } };
  }
  const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
  return { type: 'error', error: { type, message } };
}
