import type { IncomingMessage } from 'node:http';

export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
  /** When it arrived (ms since the epoch). */
  at: number;
}

/** Reads a `text/event-stream` answer as a browser does: each complete event with its JSON data. */
export function readSse(res: IncomingMessage, onEvent: (e: SseEvent) => void): void {
  let buffer = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    buffer += chunk;
    let cut = buffer.indexOf('\n\n');
    while (cut >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: (.+)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1];
      if (event && data) onEvent({ event, data: JSON.parse(data), at: Date.now() });
      cut = buffer.indexOf('\n\n');
    }
  });
}
