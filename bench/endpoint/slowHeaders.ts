/**
 * Slow-header connections (slowloris): each sends the start of a request and then one header
 * line every LINE_GAP_MS, never the blank line that ends the headers, so the server keeps the
 * connection (and its slot under maxConnections) until its header time-out ends it. As a real
 * attacker does, a connection the server ends is opened again, so the count stays up.
 */
import { connect, type Socket } from 'node:net';

export const LINE_GAP_MS = 500;
/** Bounds the lines a connection sends, whatever the window is. */
const MAX_LINES = 60;
/** A connection the server ended is opened again after this, not in a tight loop. */
const REOPEN_AFTER_MS = LINE_GAP_MS;
/** Bounds the openings, replacements included, at this many per connection. */
const MAX_OPENINGS_EACH = 20;
/** A connection the server ends within this was refused, not timed out. */
const AT_ONCE_MS = 100;

interface Slow {
  socket: Socket;
  opened: number;
  connected: boolean;
  /** Set before this benchmark destroys the socket, so that its close is not counted. */
  ours: boolean;
  /** Set when the server ended the connection (not this benchmark). */
  closedAfterMs: number | undefined;
  /** The status line the server answered with, if any (e.g. a 408 or 431). */
  answer: string | undefined;
}

export interface SlowCounts {
  /** Connections opened, replacements included. */
  opened: number;
  connected: number;
  /** Closed by the server within AT_ONCE_MS of opening: refused for want of a free slot. */
  closedAtOnce: number;
  /** Closed by the server later: a header time-out, say. */
  closedLater: number;
  /** Still open, held by this benchmark. */
  held: number;
  /** The server's answers, by status line. */
  answers: string[];
}

export interface SlowConnections {
  counts(): SlowCounts;
  /** Stops the lines and the replacements and destroys every socket still open. */
  close(): void;
}

function open(port: number, index: number, onServerClose: () => void): Slow {
  const socket = connect({ host: '127.0.0.1', port });
  const slow: Slow = {
    socket,
    opened: performance.now(),
    connected: false,
    ours: false,
    closedAfterMs: undefined,
    answer: undefined,
  };
  socket.on('connect', () => {
    slow.connected = true;
    // No token: a slow client need not know it, the headers never get as far as its check.
    socket.write(
      `POST /erp/orderStatus HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow-Client: ${index}\r\n`,
    );
  });
  socket.setEncoding('utf8').on('data', (chunk: string) => {
    slow.answer ??= chunk.split('\r\n', 1)[0];
  });
  // A reset or a refused connection is what is counted, not an error of the benchmark.
  socket.on('error', () => undefined);
  socket.on('close', () => {
    if (slow.ours) return;
    slow.closedAfterMs = performance.now() - slow.opened;
    onServerClose();
  });
  return slow;
}

function writeLine(slows: readonly Slow[], line: number): void {
  for (const slow of slows) {
    if (slow.connected && slow.closedAfterMs === undefined && slow.socket.writable) {
      slow.socket.write(`X-Slow-Line-${line}: ${'a'.repeat(32)}\r\n`);
    }
  }
}

function counts(slows: readonly Slow[]): SlowCounts {
  const closed = slows.filter((slow) => slow.closedAfterMs !== undefined);
  const atOnce = closed.filter((slow) => (slow.closedAfterMs ?? 0) <= AT_ONCE_MS).length;
  return {
    opened: slows.length,
    connected: slows.filter((slow) => slow.connected).length,
    closedAtOnce: atOnce,
    closedLater: closed.length - atOnce,
    held: slows.length - closed.length,
    answers: slows.flatMap((slow) => (slow.answer === undefined ? [] : [slow.answer])),
  };
}

/**
 * How long a dropped connection waits before it is opened again: `reopenAfterMs`, but never less
 * than REOPEN_AFTER_MS after a refusal at once, so that a server refusing every connection does
 * not meet a tight loop that spends MAX_OPENINGS_EACH in a moment and leaves no load behind.
 */
function reopenDelay(slow: Slow, reopenAfterMs: number): number {
  const refused = (slow.closedAfterMs ?? 0) <= AT_ONCE_MS;
  return refused ? Math.max(reopenAfterMs, REOPEN_AFTER_MS) : reopenAfterMs;
}

/**
 * Keeps `count` slow connections open; one header line goes to each every LINE_GAP_MS. One the
 * server drops is opened again after `reopenAfterMs` (0: as soon as it is dropped).
 */
export function openSlowConnections(
  port: number,
  count: number,
  reopenAfterMs = REOPEN_AFTER_MS,
): SlowConnections {
  const slows: Slow[] = [];
  const reopenTimers = new Set<NodeJS.Timeout>();
  let closing = false;
  const start = (index: number): void => {
    if (closing || slows.length >= count * MAX_OPENINGS_EACH) return;
    const slow = open(port, index, () => {
      const timer = setTimeout(
        () => {
          reopenTimers.delete(timer);
          start(index);
        },
        reopenDelay(slow, reopenAfterMs),
      );
      reopenTimers.add(timer);
    });
    slows.push(slow);
  };
  for (let index = 0; index < count; index += 1) start(index);
  let line = 0;
  const lineTimer = setInterval(() => {
    line += 1;
    if (line > MAX_LINES) clearInterval(lineTimer);
    else writeLine(slows, line);
  }, LINE_GAP_MS);
  return {
    counts: () => counts(slows),
    close() {
      closing = true;
      clearInterval(lineTimer);
      reopenTimers.forEach((timer) => clearTimeout(timer));
      for (const slow of slows) {
        slow.ours = true;
        slow.socket.destroy();
      }
    },
  };
}
