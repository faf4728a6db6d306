/**
 * A small text/event-stream reader over fetch. The staff token goes in the Authorization header (never
 * in the URL), which EventSource cannot send; this reads the stream body and parses the events itself.
 */

export interface SseEvent {
  event: string;
  data: string;
}

/** Incremental parser: feed text chunks, get whole events (comments and retry lines are skipped). */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];

  feed(chunk: string): SseEvent[] {
    this.buffer += chunk;
    const out: SseEvent[] = [];
    let newline = this.buffer.search(/\r\n|\r|\n/);
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline);
      const width = this.buffer.startsWith('\r\n', newline) ? 2 : 1;
      this.buffer = this.buffer.slice(newline + width);
      if (line === '') {
        if (this.data.length) out.push({ event: this.event || 'message', data: this.data.join('\n') });
        this.event = '';
        this.data = [];
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'event') this.event = value;
        else if (field === 'data') this.data.push(value);
      }
      newline = this.buffer.search(/\r\n|\r|\n/);
    }
    return out;
  }
}

export type StreamState = 'connecting' | 'open' | 'offline';

export interface StreamOptions {
  url: string;
  /** Read before every (re)connection, so a renewed token is used; null stops the stream. */
  token: () => string | null;
  onEvent: (event: SseEvent) => void;
  onState: (state: StreamState) => void;
  /** Called on a 401: the session is over, the stream stops. */
  onUnauthorized?: () => void;
  /** Backoff: first wait, cap, and the random share added (tests pass 0). */
  backoff?: { firstMs: number; maxMs: number; jitter: number };
  fetchImpl?: typeof fetch;
}

export const DEFAULT_BACKOFF = { firstMs: 1000, maxMs: 30_000, jitter: 0.3 };

/** The wait before reconnection attempt `attempt` (0-based): doubling from firstMs up to maxMs. */
export function backoffDelay(attempt: number, b = DEFAULT_BACKOFF, random = Math.random): number {
  const base = Math.min(b.maxMs, b.firstMs * 2 ** Math.min(attempt, 20));
  return Math.round(base * (1 + b.jitter * random()));
}

/** The reason of the server's `end` event (why it closes the stream), or 'unknown'. */
function endReason(data: string): string {
  try {
    const reason = (JSON.parse(data) as { reason?: unknown }).reason;
    return typeof reason === 'string' ? reason : 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * Opens the stream and keeps it open: after a drop it reconnects with growing waits, reset by every
 * successful connection. Returns a function that closes it for good.
 */
export function openEventStream(opts: StreamOptions): () => void {
  const controller = new AbortController();
  const doFetch = opts.fetchImpl ?? fetch;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const retry = () => {
    if (stopped) return;
    opts.onState('offline');
    timer = setTimeout(connect, backoffDelay(attempt++, opts.backoff ?? DEFAULT_BACKOFF));
  };

  const connect = async () => {
    timer = null;
    const token = opts.token();
    if (stopped || !token) return;
    opts.onState('connecting');
    try {
      const res = await doFetch(opts.url, {
        headers: { authorization: token, accept: 'text/event-stream' },
        cache: 'no-store',
        signal: controller.signal,
      });
      if (res.status === 401) {
        stopped = true;
        opts.onUnauthorized?.();
        return;
      }
      if (!res.ok || !res.body) throw new Error(`event stream answered ${res.status}`);
      attempt = 0;
      opts.onState('open');
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      const parser = new SseParser();
      let ended: string | null = null;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const event of parser.feed(value)) {
          if (event.event === 'end') ended = endReason(event.data);
          else opts.onEvent(event);
        }
      }
      // The server closed it on purpose. Newer streams of this session took its place: stay offline (no
      // tug of war between tabs). Otherwise (its lifetime, its session ended): at once, no backoff, where
      // a session that ended hears 401.
      if (ended === 'too-many-streams') {
        stopped = true;
        opts.onState('offline');
        return;
      }
      if (ended) {
        void connect();
        return;
      }
    } catch {
      // A network error or a closed stream: reconnect below, unless closed on purpose.
    }
    retry();
  };

  void connect();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    controller.abort();
  };
}
