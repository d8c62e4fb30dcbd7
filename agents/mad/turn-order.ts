/**
 * Gates that open in turn order, for steps of concurrent turns whose effects must not depend on
 * which turn gets there first. MAD's debaters run a round at once; a snippet a debater requests
 * gets the next passage handle (P21, P22, …) when its search comes back, so without an order the
 * handles — and every later prompt that shows them — followed the order the model's replies
 * arrived in: a replay (which answers in start order) then asked for requests the recording did
 * not hold (issue 37, item 18). With a gate, turn i hands out handles only after turns 0…i−1 did.
 *
 *   const gates = inTurnOrder(letters.length);
 *   await gates[i].before;  …allocate…  gates[i].done();   // done() also when the turn has nothing to allocate or fails
 */
export interface TurnGate {
  /** Resolves once every earlier turn called done(). */
  before: Promise<void>;
  /** This turn is past its ordered step (idempotent). */
  done(): void;
}

export function inTurnOrder(n: number): TurnGate[] {
  const finished: Promise<void>[] = [];
  const gates: TurnGate[] = [];
  for (let i = 0; i < n; i++) {
    let resolve!: () => void;
    finished.push(new Promise<void>((r) => (resolve = r)));
    gates.push({ before: Promise.all(finished.slice(0, i)).then(() => undefined), done: resolve });
  }
  return gates;
}
