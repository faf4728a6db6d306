import { afterEach, describe, expect, it } from 'vitest';
import { SESSION_STORAGE_KEY } from '../../shared/constants';
import { file, mockApi, refused, signInAs } from '../test/fixtures';
import { requestBlob, requestJson, setUnauthorizedHandler, uploadWithProgress } from './api-client';

afterEach(() => localStorage.clear());

describe('the one transport', () => {
  it('sends the stored token as is on JSON, file and upload calls; a 401 from any of them signs out once, with its message', async () => {
    signInAs('Team');
    const token = JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY)!).accessToken as string;
    const sent = mockApi({
      'GET /api/admin/a': () => refused(401, 'Session ended (json)'),
      'GET /api/admin/b': () => refused(401, 'Session ended (file)'),
      'POST /api/admin/c': () => refused(401, 'Session ended (upload)'),
      'GET /api/admin/d': () => file('x,y\n', 'text/csv', 'orders.csv'),
    });
    const seen: string[] = [];
    setUnauthorizedHandler((message) => seen.push(message));

    const json = await requestJson('admin/a');
    expect(json).toEqual({
      ok: false,
      error: { status: 401, data: { status: 401, message: 'Session ended (json)' } },
    });
    expect((await requestBlob('admin/b')).ok).toBe(false);
    const form = new FormData();
    form.append('orderId', '1');
    const upload = await uploadWithProgress('admin/c', form, () => undefined);
    expect(upload.ok).toBe(false);
    const csv = await requestBlob('admin/d');
    expect(csv.ok && csv.fileName).toBe('orders.csv');

    expect(seen).toEqual(['Session ended (json)', 'Session ended (file)', 'Session ended (upload)']);
    expect(sent.map((r) => r.headers.get('authorization'))).toEqual([token, token, token, token]);
  });

  it('a body that is not the envelope (a proxy page) becomes a generic message with the HTTP status', async () => {
    mockApi({ 'GET /api/admin/x': () => ({ status: 502, body: '<html>bad gateway</html>' }) });
    const res = await requestJson('admin/x');
    expect(res.ok ? null : res.error).toEqual({
      status: 502,
      data: { status: 0, message: 'Request failed (HTTP 502)' },
    });
  });
});
