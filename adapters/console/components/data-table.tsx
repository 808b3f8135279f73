import type { ComponentChildren } from 'preact';

// A table of rows: column headings, then each row's cells. Wide tables scroll on their own, so
// the page keeps the screen's width.

type Props<T> = {
  columns: string[];
  rows: T[];
  rowKey: (row: T) => string;
  cells: (row: T) => ComponentChildren[];
  caption?: string;
};

export function DataTable<T>({ columns, rows, rowKey, cells, caption }: Props<T>) {
  return (
    <div class="table-wrap">
      <table>
        {caption && <caption class="muted">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column || <span class="visually-hidden">Actions</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {cells(row).map((cell, index) => (
                <td key={index}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
