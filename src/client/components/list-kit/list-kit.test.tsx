import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { renderPage } from '../../test/fixtures';
import { PaginationBar } from '../pagination-bar';
import { column, DataTable } from './data-table';
import {
  pageParam,
  schemaParam,
  serializeParams,
  sizeParam,
  textParam,
  type UrlParam,
  useListState,
} from './use-list-state';

interface Fruit {
  code: string;
  name: string;
  stock: number;
}

const FRUITS: Fruit[] = Array.from({ length: 23 }, (_, i) => ({
  code: `f${i + 1}`,
  name: `Fruit ${String.fromCharCode(65 + ((i * 7) % 23))}`,
  stock: (i * 5) % 17,
}));

const PARAMS = {
  sort: schemaParam(z.enum(['name', 'stock']).optional()),
  dir: schemaParam(z.enum(['asc', 'desc']).optional()),
  shelf: textParam,
};

const COLUMNS = [
  column<Fruit>('Name', (f) => f.name, { meta: { sortKey: 'name' } }),
  column<Fruit>('Stock', (f) => f.stock, { meta: { sortKey: 'stock' } }),
  column<Fruit>('Code', (f) => f.code),
];

/** A list screen built from the kit alone: URL state, the table (sorted by its headers) and paging. */
function FruitList() {
  const { filters, setFilters, page, size, setPage, setSize } = useListState(PARAMS);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const { sort, dir = 'asc' } = filters;
  const sorted = sort
    ? [...FRUITS].sort(
        (a, b) => (a[sort] < b[sort] ? -1 : a[sort] > b[sort] ? 1 : 0) * (dir === 'asc' ? 1 : -1),
      )
    : FRUITS;
  const limit = size === 'All' ? FRUITS.length : size;
  const rows = sorted.slice((page - 1) * limit, page * limit);
  return (
    <>
      <DataTable
        rows={rows}
        columns={COLUMNS}
        rowId={(f) => f.code}
        label="Fruits"
        empty="No records found"
        sort={{ key: sort, dir }}
        onSort={(key, d) => setFilters({ sort: key as 'name' | 'stock', dir: d })}
        selection={{
          selected,
          onToggle: (id) =>
            setSelected((prev) => {
              const next = new Set(prev);
              if (!next.delete(id)) next.add(id);
              return next;
            }),
          onToggleAll: (checked) => setSelected(checked ? new Set(rows.map((f) => f.code)) : new Set()),
          rowLabel: (f) => `Select ${f.code}`,
        }}
      />
      <output data-testid="selected">{[...selected].sort().join(',')}</output>
      <PaginationBar
        page={page}
        pageSize={size}
        total={FRUITS.length}
        onPage={setPage}
        onPageSize={setSize}
      />
    </>
  );
}

const renderList = (path = '/fruits') => renderPage('/fruits', path, <FruitList />);
const bodyNames = () =>
  within(screen.getByRole('table', { name: 'Fruits' }))
    .getAllByRole('row')
    .slice(1)
    .map((tr) => tr.querySelectorAll('td')[1]?.textContent);
const byName = (a: Fruit, b: Fruit) => a.name.localeCompare(b.name);

describe('list kit: the table', () => {
  it('sorts by a header click: the URL holds the sort, the header says it, the second click turns it', async () => {
    const { router } = renderList('/fruits?page=2');
    expect(bodyNames()).toEqual(FRUITS.slice(10, 20).map((f) => f.name));
    const header = screen.getByRole('columnheader', { name: /Name/ });
    expect(header).toHaveAttribute('aria-sort', 'none');
    // Code has no sort key: a plain header.
    expect(within(screen.getByRole('columnheader', { name: 'Code' })).queryByRole('button')).toBeNull();

    await userEvent.click(within(header).getByRole('button', { name: /Name/ }));
    // A new sort starts again from the first page.
    await waitFor(() => expect(router.state.location.search).toBe('?sort=name&dir=asc'));
    expect(header).toHaveAttribute('aria-sort', 'ascending');
    expect(bodyNames()).toEqual(
      [...FRUITS]
        .sort(byName)
        .slice(0, 10)
        .map((f) => f.name),
    );

    await userEvent.click(within(header).getByRole('button', { name: /Name/ }));
    await waitFor(() => expect(header).toHaveAttribute('aria-sort', 'descending'));
    expect(router.state.location.search).toBe('?sort=name&dir=desc');
    expect(bodyNames()).toEqual(
      [...FRUITS]
        .sort(byName)
        .reverse()
        .slice(0, 10)
        .map((f) => f.name),
    );
  });

  it('pages through the rows and changes the page size, all in the URL', async () => {
    const { router } = renderList();
    expect(bodyNames()).toHaveLength(10);
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    expect(bodyNames()).toEqual(FRUITS.slice(10, 20).map((f) => f.name));
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(bodyNames()).toEqual(FRUITS.slice(20).map((f) => f.name)));
    expect(screen.getByRole('button', { name: 'Next page' }).closest('li')).toHaveClass('disabled');
    // Back goes to the page before.
    await router.navigate(-1);
    await waitFor(() => expect(bodyNames()).toEqual(FRUITS.slice(10, 20).map((f) => f.name)));
    await userEvent.selectOptions(screen.getByLabelText('Show'), '25');
    await waitFor(() => expect(router.state.location.search).toBe('?size=25'));
    expect(bodyNames()).toHaveLength(23);
  });

  it('keys rows by the getRowId the screen gives: selection follows the row, not its place', async () => {
    renderList();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select f3' }));
    expect(screen.getByTestId('selected')).toHaveTextContent('f3');
    // Another order (highest stock first): the same fruit is still the one selected.
    const stock = screen.getByRole('columnheader', { name: /Stock/ });
    await userEvent.click(within(stock).getByRole('button'));
    await userEvent.click(within(stock).getByRole('button'));
    await waitFor(() => expect(stock).toHaveAttribute('aria-sort', 'descending'));
    const boxes = screen.getAllByRole('checkbox', { name: /^Select f/ });
    // f3 (stock 10) is among the ten highest, now at another place.
    expect(
      boxes.filter((b) => (b as HTMLInputElement).checked).map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Select f3']);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all rows' }));
    expect(screen.getByRole('checkbox', { name: 'Select all rows' })).toBeChecked();
    expect(screen.getByTestId('selected').textContent?.split(',')).toHaveLength(10);
  });

  it('shows what the screen gives for no rows', () => {
    renderList('/fruits?page=9');
    expect(screen.getByRole('cell', { name: 'No records found' })).toBeInTheDocument();
  });
});

/** The text a parameter writes for a value, read back: the same value. */
function roundTrip<T>(p: UrlParam<T>, value: T): T {
  return p.parse(p.serialize(value));
}

describe('list kit: URL parameters', () => {
  it('text: absent and empty are the same, anything else round-trips', () => {
    expect(textParam.parse(null)).toBe('');
    expect(textParam.serialize('')).toBeNull();
    for (const v of ['', 'a b', 'x&y=z', 'Ünïcode']) expect(roundTrip(textParam, v)).toBe(v);
  });

  it('schema: only what the contract accepts, the rest reads as none', () => {
    const p = schemaParam(z.enum(['asc', 'desc']).optional());
    expect(p.parse('desc')).toBe('desc');
    expect(p.parse('sideways')).toBeUndefined();
    expect(p.parse(null)).toBeUndefined();
    expect(p.serialize(undefined)).toBeNull();
    for (const v of ['asc', 'desc', undefined] as const) expect(roundTrip(p, v)).toBe(v);
  });

  it('page: the first page is left out; nonsense is the first page', () => {
    expect(pageParam.serialize(1)).toBeNull();
    expect(pageParam.serialize(3)).toBe('3');
    for (const raw of [null, '0', '-2', 'abc']) expect(pageParam.parse(raw)).toBe(1);
    for (const v of [1, 2, 40]) expect(roundTrip(pageParam, v)).toBe(v);
  });

  it('size: the page sizes and All; 10 is left out; anything else is 10', () => {
    expect(sizeParam.serialize(10)).toBeNull();
    expect(sizeParam.parse('7')).toBe(10);
    expect(sizeParam.parse(null)).toBe(10);
    for (const v of [10, 25, 'All'] as const) expect(roundTrip(sizeParam, v)).toBe(v);
  });

  it('serializes typed values by their own parameters (and ignores names it does not declare)', () => {
    expect(serializeParams(PARAMS, { sort: 'stock', dir: undefined, shelf: 'top' })).toEqual({
      sort: 'stock',
      dir: null,
      shelf: 'top',
    });
  });

  it('a link round-trips: typed values from the URL write the same URL', async () => {
    function Echo() {
      const { filters, query } = useListState(PARAMS);
      return <output data-testid="state">{JSON.stringify({ filters, query })}</output>;
    }
    renderPage('/x', '/x?sort=name&dir=sideways&shelf=top%20left&other=1', <Echo />);
    expect(JSON.parse(screen.getByTestId('state').textContent ?? '')).toEqual({
      filters: { sort: 'name', shelf: 'top left' },
      query: { sort: 'name', shelf: 'top left' },
    });
  });
});
