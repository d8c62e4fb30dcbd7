/** Every item of an async iterable, in order (Node 20 has no Array.fromAsync). */
export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
