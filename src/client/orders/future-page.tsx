/** Placeholder until its issue lands. */
export function Component() {
  return <h1 className="h4 p-3">Future Orders</h1>;
}
