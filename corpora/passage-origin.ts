/**
 * Where a loader read each passage: its file and 1-based line (the line a CSV record starts on; a
 * Parquet file's row number). Kept beside the passage object, not on it (a WeakMap: the Passage
 * shape and what the doc store records stay as they are), for a message that names the passage after
 * loading — the index build's duplicate id names the line a user can open, not the passage's
 * ordinal (a CSV header, blank JSONL lines and multi-line CSV records make them differ).
 */
export interface PassageOrigin {
  file: string;
  line: number;
}

const origins = new WeakMap<object, PassageOrigin>();

export function setPassageOrigin(passage: object, origin: PassageOrigin): void {
  origins.set(passage, origin);
}

/** Where `passage` was read, when a file loader read it; undefined for passages built in code. */
export function passageOrigin(passage: object): PassageOrigin | undefined {
  return origins.get(passage);
}
