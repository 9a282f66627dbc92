/*
 * A table's column headings, as every console table has them: one header row of `th scope="col"`,
 * and optionally a last column of actions whose heading is muted (a screen reader still names it).
 */
export function ColumnHeads(props: { cols: readonly string[]; action?: boolean }) {
  return (
    <thead>
      <tr>
        {props.cols.map((c) => (
          <th scope="col">{c}</th>
        ))}
        {props.action && (
          <th scope="col">
            <span class="muted">Action</span>
          </th>
        )}
      </tr>
    </thead>
  );
}
