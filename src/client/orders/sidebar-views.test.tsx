import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { type SavedView, savedView } from '../../shared/contracts/views';
import { mockApi, ok, refused, renderPage } from '../test/fixtures';
import { SidebarViews } from './sidebar-views';

const view = (over: Partial<SavedView>): SavedView =>
  savedView.parse({
    id: 7,
    name: 'Arriving soon',
    folder: 'pendingOrder',
    query: { sort: 'arrival_date', dir: 'asc', nationality: 'NLD', limit: 25 },
    shared: true,
    ownerName: 'Mia Manager',
    mine: true,
    count: 12,
    ...over,
  });

function open(views: SavedView[]) {
  let current = views;
  const sent = mockApi({
    'GET /api/admin/views': () => ok(current, 'Success'),
    'PUT /api/admin/views/7': (req) => {
      const body = req.body as { name: string };
      current = current.map((v) => (v.id === 7 ? { ...v, name: body.name } : v));
      return ok(current[0], 'View saved');
    },
  });
  renderPage('/admin', '/admin', <SidebarViews />);
  return sent;
}

describe('Sidebar views', () => {
  it('renames an own view in place, keeping its folder, query and sharing', async () => {
    const user = userEvent.setup();
    const sent = open([view({}), view({ id: 8, name: 'Team view', mine: false, ownerName: 'Ann Admin' })]);
    await user.click(await screen.findByRole('button', { name: 'Rename the view Arriving soon' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename the view' });
    const field = within(dialog).getByLabelText('Name');
    expect(field).toHaveValue('Arriving soon');
    expect(within(dialog).getByRole('button', { name: 'Rename' })).toBeDisabled();
    await user.clear(field);
    await user.type(field, '  Arriving in 72 h  ');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(await screen.findByText('View saved')).toBeInTheDocument();
    const put = sent.find((r) => r.method === 'PUT');
    expect(put).toMatchObject({
      method: 'PUT',
      path: '/api/admin/views/7',
      body: {
        name: 'Arriving in 72 h',
        folder: 'pendingOrder',
        query: { sort: 'arrival_date', dir: 'asc', nationality: 'NLD', limit: 25 },
        shared: true,
      },
    });
    expect(Object.keys(put?.body as object).sort()).toEqual(['folder', 'name', 'query', 'shared']);
    expect(await screen.findByRole('link', { name: /Arriving in 72 h/ })).toBeInTheDocument();
    // Another member's shared view can be opened, not renamed or deleted.
    expect(screen.getByRole('link', { name: /Team view/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rename the view Team view' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete the view Team view' })).toBeNull();
  });

  it('shows the server refusal and keeps the dialog open', async () => {
    const user = userEvent.setup();
    mockApi({
      'GET /api/admin/views': () => ok([view({})], 'Success'),
      'PUT /api/admin/views/7': () => refused(400, 'name is too long'),
    });
    renderPage('/admin', '/admin', <SidebarViews />);
    await user.click(await screen.findByRole('button', { name: 'Rename the view Arriving soon' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Name'), ' x');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(await screen.findByText('name is too long')).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});
