/** Moves `key` to the end of `set`: a set of changed paths then keeps the order of the latest changes. */
export function moveToEnd<T>(set: Set<T>, key: T): void {
  set.delete(key);
  set.add(key);
}
