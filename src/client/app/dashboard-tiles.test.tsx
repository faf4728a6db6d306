import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { FOLDER_COUNT_KEYS, type FolderCounts, ROLES } from '../../shared/constants';
import { can } from '../../shared/permissions';
import { makeStore } from '../state/store';
import { DashboardTiles } from './dashboard-tiles';

/** A stored session as the SPA keeps it; the tiles only decode the payload (the server verifies). */
function storeSession(type: string) {
  const enc = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '');
  const token = `${enc({ alg: 'HS256' })}.${enc({ user: { id: 1, name: `Demo ${type}`, type }, exp: Date.now() / 1000 + 3600 })}.sig`;
  localStorage.setItem('user', JSON.stringify({ accessToken: token }));
}

const COUNTS = {
  ...Object.fromEntries(Object.values(FOLDER_COUNT_KEYS).map((k, i) => [k, 100 + i])),
  atRiskCount: 7,
  breachedCount: 3,
} as unknown as FolderCounts;

function renderTiles(role: string) {
  storeSession(role);
  render(
    <Provider store={makeStore()}>
      <MemoryRouter>
        <DashboardTiles counts={COUNTS} />
      </MemoryRouter>
    </Provider>,
  );
}

afterEach(() => localStorage.clear());

describe('Due soon and Late tiles, per role', () => {
  for (const role of ROLES) {
    const opensHistory = can(role, 'orders.readAll');
    it(`${role}: ${opensHistory ? 'link to Order History filtered by due state' : 'no tiles (cannot open Order History)'}`, () => {
      renderTiles(role);
      const dueSoon = screen.queryByRole('link', { name: /Due soon/ });
      const late = screen.queryByRole('link', { name: /^Late/ });
      if (opensHistory) {
        expect(dueSoon).toHaveAttribute('href', '/admin/order-history?dueState=at_risk&sort=due_at');
        expect(dueSoon).toHaveTextContent('7');
        expect(late).toHaveAttribute('href', '/admin/order-history?dueState=breached&sort=due_at');
        expect(late).toHaveTextContent('3');
      } else {
        expect(dueSoon).toBeNull();
        expect(late).toBeNull();
      }
      // Every role keeps its folder tiles, each linking to a folder it can open.
      expect(screen.getByRole('link', { name: /My Orders/ })).toHaveAttribute('href', '/admin/my-order');
    });
  }
  it('Trip passed: its own tile, opening Order History filtered to those orders', () => {
    storeSession('Manager');
    render(
      <Provider store={makeStore()}>
        <MemoryRouter>
          <DashboardTiles counts={{ ...COUNTS, tripPassedCount: 4 } as FolderCounts} />
        </MemoryRouter>
      </Provider>,
    );
    const tile = screen.getByRole('link', { name: /Trip passed/ });
    expect(tile).toHaveAttribute('href', '/admin/order-history?dueState=trip_passed&sort=arrival_date');
    expect(tile).toHaveTextContent('4');
    expect(screen.getByRole('link', { name: /^Late/ })).toHaveTextContent('3');
  });
  it('Telecaller is the role without Order History (the table this mirrors)', () => {
    expect(ROLES.filter((r) => !can(r, 'orders.readAll'))).toEqual(['Telecaller']);
  });
});
