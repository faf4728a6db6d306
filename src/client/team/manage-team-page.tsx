/** Placeholder until its issue lands. */
export function Component() {
  return <h1 className="h4 p-3">Manage Team</h1>;
}
