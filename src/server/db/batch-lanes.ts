/**
 * Requests that arrive while an earlier one of the same kind is being written wait for it and are then
 * written together, in one transaction (docs/decisions/283-claim-under-contention.md and 440): every
 * claim's commit notifies, and PostgreSQL commits notifying transactions one at a time, each with its own
 * WAL flush, so claims written one per transaction queue behind each other's flushes (and behind the
 * counter rows they all move). Written together, they share one flush, one counters upsert and one set
 * of statement triggers. Each waiter gets the answer at its own position of the batch.
 *
 * A lane is one kind of request with one condition (a folder and its day, a job queue); `write` runs a
 * batch of at most `max` waiters' inputs and answers one result per input, in their order. A failed
 * batch rejects each of its waiters with the error; the lane goes on with the next.
 */
export class BatchLanes<In, Out> {
  private readonly lanes = new Map<string, { waiting: Waiter<In, Out>[]; running: boolean }>();

  constructor(
    private readonly write: (inputs: readonly In[], key: string) => Promise<Out[]>,
    private readonly max: number,
  ) {}

  /** Queues `input` on the lane `key`; resolves with its result once its batch is written. */
  run(key: string, input: In): Promise<Out> {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { waiting: [], running: false };
      this.lanes.set(key, lane);
    }
    const promise = new Promise<Out>((resolve, reject) => {
      lane.waiting.push({ input, resolve, reject });
    });
    if (!lane.running) void this.drain(key, lane);
    return promise;
  }

  private async drain(key: string, lane: { waiting: Waiter<In, Out>[]; running: boolean }): Promise<void> {
    lane.running = true;
    try {
      while (lane.waiting.length) {
        const batch = lane.waiting.splice(0, this.max);
        try {
          const results = await this.write(
            batch.map((w) => w.input),
            key,
          );
          batch.forEach((w, i) => {
            w.resolve(results[i] as Out);
          });
        } catch (err) {
          for (const w of batch) w.reject(err);
        }
      }
    } finally {
      lane.running = false;
      if (this.lanes.get(key) === lane && !lane.waiting.length) this.lanes.delete(key);
    }
  }
}

interface Waiter<In, Out> {
  input: In;
  resolve: (out: Out) => void;
  reject: (err: unknown) => void;
}

/** One BatchLanes per database handle (tests open several databases in one process). */
export function lanesPerDatabase<In, Out>(
  make: (db: object) => BatchLanes<In, Out>,
): (db: object) => BatchLanes<In, Out> {
  const byDb = new WeakMap<object, BatchLanes<In, Out>>();
  return (db) => {
    let lanes = byDb.get(db);
    if (!lanes) {
      lanes = make(db);
      byDb.set(db, lanes);
    }
    return lanes;
  };
}
