import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MSG } from '../../shared/contracts/account.js';
import { AUTH_MSG } from '../../shared/contracts/auth.js';
import { MSG } from '../../shared/messages.js';
import { DEMO_PASSWORD } from '../db/demo-users.js';
import { createMailSender } from '../mail/transports.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { startSmtp, type TestSmtp } from '../test/smtp.js';
import { setClockForTests } from './clock.js';
import { deliverStaffNotices } from './notices.js';
import { hashPassword } from './passwords.js';
import { totpCode } from './two-factor.js';

let t: TestApp;
let smtp: TestSmtp;
let ipN = 0;
const base = Date.now();
/** The injected clock: `at(s)` is `s` seconds after the start of this file. */
const at = (seconds: number) => new Date(base + seconds * 1000);
const clockAt = (seconds: number) => setClockForTests(() => at(seconds));

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ MAIL_AWS_SMTP_URL: smtp.url });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
afterEach(() => setClockForTests(null));

async function createStaff(email: string, role = 'Team', password = 'a-good-long-password') {
  const { rows } = await t.database.sql.query<{ id: number }>(
    "insert into staff_users (name, email, password_hash, role) values ('Two Factor', $1, $2, $3) returning id",
    [email, await hashPassword(password), role],
  );
  return rows[0]!.id;
}

const login = (email: string, extra: object = {}, ua = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0') =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/admin-login',
    payload: { email, password: 'a-good-long-password', ...extra },
    remoteAddress: `10.70.0.${++ipN}`,
    headers: { 'user-agent': ua },
  });
const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/api${url}`,
    headers: { authorization: token },
    ...(payload ? { payload } : {}),
  });

async function signIn(email: string, extra: object = {}) {
  const res = await login(email, extra);
  expect(res.json().status).toBe(1);
  return res.json().jwtToken as string;
}

describe('two-factor sign-in lifecycle (TOTP, time injected)', () => {
  it('setup → enable → sign-in needs a code, each code and recovery code works once → disable', async () => {
    const email = 'totp.user@example.com';
    await createStaff(email);
    clockAt(0);
    const token = await signIn(email);
    const setup = await call(token, 'POST', '/admin/2fa/setup');
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl, qrSvg } = setup.json().data;
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/ED-Card:totp\.user%40example\.com\?.*secret=/);
    expect(otpauthUrl).toContain(`secret=${secret}`);
    expect(qrSvg).toMatch(/^<svg/);
    // The secret is stored sealed, never as the base32 the user saw.
    const { rows } = await t.database.sql.query<{ totp_pending_secret: string }>(
      'select totp_pending_secret from staff_users where email = $1',
      [email],
    );
    expect(rows[0]!.totp_pending_secret).not.toContain(secret);

    const wrong = await call(token, 'POST', '/admin/2fa/enable', { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(ACCOUNT_MSG.codeWrong);
    const enable = await call(token, 'POST', '/admin/2fa/enable', { code: totpCode(secret, at(0)) });
    expect(enable.statusCode).toBe(200);
    const recovery: string[] = enable.json().data.recoveryCodes;
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);

    // Password alone: status 0, otpRequired, no token.
    const first = await login(email);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ status: 0, message: AUTH_MSG.otpRequired, data: { otpRequired: true } });
    // The code that enabled it is used up in its window.
    expect((await login(email, { otp: totpCode(secret, at(0)) })).statusCode).toBe(401);
    // 30 s later the next code works, once.
    clockAt(31);
    const code = totpCode(secret, at(31));
    const ok = await login(email, { otp: code });
    expect(ok.json()).toMatchObject({ status: 1, jwtToken: expect.any(String) });
    const replay = await login(email, { otp: code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toBe(AUTH_MSG.otpWrong);
    // A code from ten minutes ago is refused.
    expect((await login(email, { otp: totpCode(secret, at(-600)) })).statusCode).toBe(401);
    // A recovery code works once.
    expect((await login(email, { otp: recovery[0] })).json().status).toBe(1);
    expect((await login(email, { otp: recovery[0] })).statusCode).toBe(401);
    const status = await call(ok.json().jwtToken, 'GET', '/admin/2fa');
    expect(status.json().data).toEqual({ enabled: true, required: false, recoveryCodesLeft: 9 });

    // Off: the current password and a code are both needed.
    const live = ok.json().jwtToken as string;
    clockAt(62);
    const badPw = await call(live, 'POST', '/admin/2fa/disable', {
      currentPassword: 'nope',
      code: totpCode(secret, at(62)),
    });
    expect(badPw.statusCode).toBe(400);
    const off = await call(live, 'POST', '/admin/2fa/disable', {
      currentPassword: 'a-good-long-password',
      code: totpCode(secret, at(62)),
    });
    expect(off.statusCode).toBe(200);
    expect((await login(email)).json().status).toBe(1);
  });

  it('wrong codes are throttled like passwords: per account + address, the owner elsewhere still signs in', async () => {
    const email = 'totp.throttle@example.com';
    await createStaff(email);
    clockAt(0);
    const token = await signIn(email);
    const { secret } = (await call(token, 'POST', '/admin/2fa/setup')).json().data;
    await call(token, 'POST', '/admin/2fa/enable', { code: totpCode(secret, at(0)) });
    // Someone holding the password guesses codes from one address: 429 there after 10, for a while.
    const fromAttacker = (otp: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/admin-login',
        payload: { email, password: 'a-good-long-password', otp },
        remoteAddress: '10.71.0.66',
      });
    let last = await fromAttacker('111111');
    for (let i = 0; i < 40; i++) last = await fromAttacker('111111');
    expect(last.statusCode).toBe(429);
    clockAt(60);
    expect((await fromAttacker(totpCode(secret, at(60)))).statusCode).toBe(429);
    // The owner, from their own address, is not locked out.
    expect((await login(email, { otp: totpCode(secret, at(90)) })).json().status).toBe(1);
    // Guessing from many addresses meets the account's slower ceiling (100 an hour), for every address.
    for (let i = 0; i < 100; i++) last = await login(email, { otp: '111111' });
    expect(last.statusCode).toBe(429);
    clockAt(120);
    expect((await login(email, { otp: totpCode(secret, at(120)) })).statusCode).toBe(429);
  });

  it('refuses hostile codes with 400 and changes nothing', async () => {
    const email = 'totp.hostile@example.com';
    await createStaff(email);
    const token = await signIn(email);
    await call(token, 'POST', '/admin/2fa/setup');
    for (const code of ['x'.repeat(5000), '12\u000034', 123456, null]) {
      const res = await call(token, 'POST', '/admin/2fa/enable', { code });
      expect(res.statusCode).toBe(400);
      expect(res.body).not.toMatch(/stack|\.ts:\d/);
    }
    expect((await login(email, { otp: '12\u000034' })).statusCode).toBe(400);
    expect((await call(token, 'GET', '/admin/2fa')).json().data.enabled).toBe(false);
  });
});

describe('required two-factor per role, and the Admin reset', () => {
  it('a user of a required role is held to the setup until it is on', async () => {
    const admin = await t.tokenFor('Admin');
    const nope = await call(await t.tokenFor('Manager'), 'PUT', '/admin/security-settings', {
      twoFactorRoles: [],
      mustChangeSetPasswords: false,
    });
    expect(nope.statusCode).toBe(403);
    const bad = await call(admin, 'PUT', '/admin/security-settings', {
      twoFactorRoles: ['Janitor'],
      mustChangeSetPasswords: false,
    });
    expect(bad.statusCode).toBe(400);
    const put = await call(admin, 'PUT', '/admin/security-settings', {
      twoFactorRoles: ['Telecaller'],
      mustChangeSetPasswords: false,
    });
    expect(put.statusCode).toBe(200);
    const email = 'must.setup@example.com';
    const id = await createStaff(email, 'Telecaller');
    clockAt(0);
    const res = await login(email);
    expect(res.json().data).toMatchObject({ twoFactorSetupRequired: true });
    const token = res.json().jwtToken as string;
    const blocked = await call(token, 'GET', '/admin/get-team-member-list');
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().message).toBe(AUTH_MSG.twoFactorSetupRequired);
    expect((await call(token, 'GET', '/user_info')).statusCode).toBe(200);
    const { secret } = (await call(token, 'POST', '/admin/2fa/setup')).json().data;
    expect(
      (await call(token, 'POST', '/admin/2fa/enable', { code: totpCode(secret, at(0)) })).statusCode,
    ).toBe(200);
    expect((await call(token, 'GET', '/admin/get-team-member-list')).statusCode).toBe(200);
    // Required: it cannot be turned off by the user.
    clockAt(40);
    const off = await call(token, 'POST', '/admin/2fa/disable', {
      currentPassword: 'a-good-long-password',
      code: totpCode(secret, at(40)),
    });
    expect(off.json().message).toBe(ACCOUNT_MSG.twoFactorRequiredForRole);

    // The Admin resets it (audited); their sessions end; next sign-in asks for the setup again.
    const withPassword = { currentPassword: DEMO_PASSWORD };
    expect(
      (await call(await t.tokenFor('Manager'), 'POST', `/admin/2fa/reset/${id}`, withPassword)).statusCode,
    ).toBe(403);
    // The Admin re-authenticates: no password, a wrong one or a hostile one changes nothing.
    for (const body of [{}, { currentPassword: 'not-my-password' }, { currentPassword: 'x'.repeat(5000) }]) {
      const refused = await call(admin, 'POST', `/admin/2fa/reset/${id}`, body);
      expect(refused.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect((await call(token, 'GET', '/user_info')).statusCode).toBe(200);
    }
    const reset = await call(admin, 'POST', `/admin/2fa/reset/${id}`, withPassword);
    expect(reset.statusCode).toBe(200);
    expect((await call(token, 'GET', '/user_info')).statusCode).toBe(401);
    expect((await login(email)).json().data).toMatchObject({ twoFactorSetupRequired: true });
    const { rows } = await t.database.sql.query<{ to_value: unknown }>(
      "select to_value from audit_log where action = 'two-factor.reset' and target = $1 order by id",
      [`staff:${id}`],
    );
    expect(rows.map((r) => r.to_value)).toEqual([{ result: 'refused: wrong current password' }, null]);
    await call(admin, 'PUT', '/admin/security-settings', {
      twoFactorRoles: [],
      mustChangeSetPasswords: false,
    });
  });
});

describe('two-factor sign-in becoming required', () => {
  it('ends the sessions of that role opened without a second factor; those opened with one stay', async () => {
    const admin = await t.tokenFor('Admin');
    const plain = 'before.required@example.com';
    const withCode = 'already.on@example.com';
    await createStaff(plain, 'Night Staff');
    await createStaff(withCode, 'Night Staff');
    const other = await t.tokenFor('Team');
    clockAt(0);
    const plainToken = await signIn(plain);
    const setupToken = await signIn(withCode);
    const { secret } = (await call(setupToken, 'POST', '/admin/2fa/setup')).json().data;
    await call(setupToken, 'POST', '/admin/2fa/enable', { code: totpCode(secret, at(0)) });
    clockAt(31);
    // Opened before two-factor was on: ends too. Opened with a code: stays.
    const withCodeToken = await signIn(withCode, { otp: totpCode(secret, at(31)) });
    setClockForTests(null);
    for (const tk of [plainToken, setupToken, withCodeToken, other])
      expect((await call(tk, 'GET', '/user_info')).statusCode).toBe(200);

    const put = await call(admin, 'PUT', '/admin/security-settings', {
      twoFactorRoles: ['Night Staff'],
      mustChangeSetPasswords: false,
    });
    expect(put.statusCode).toBe(200);
    expect((await call(plainToken, 'GET', '/user_info')).statusCode).toBe(401);
    expect((await call(setupToken, 'GET', '/user_info')).statusCode).toBe(401);
    expect((await call(withCodeToken, 'GET', '/user_info')).statusCode).toBe(200);
    expect((await call(other, 'GET', '/user_info')).statusCode).toBe(200);
    expect((await call(admin, 'GET', '/user_info')).statusCode).toBe(200);
    // Signing in again holds the session to the setup.
    expect((await login(plain)).json().data).toMatchObject({ twoFactorSetupRequired: true });

    // The acting Admin's own session, without two-factor, is held to the setup instead of ended.
    const selfPut = await call(admin, 'PUT', '/admin/security-settings', {
      twoFactorRoles: ['Night Staff', 'Admin'],
      mustChangeSetPasswords: false,
    });
    expect(selfPut.statusCode).toBe(200);
    expect((await call(admin, 'GET', '/user_info')).statusCode).toBe(200);
    expect((await call(admin, 'GET', '/admin/get-team-member-list')).statusCode).toBe(403);
    await call(await t.tokenFor('Admin'), 'PUT', '/admin/security-settings', {
      twoFactorRoles: [],
      mustChangeSetPasswords: false,
    });
  });
});

describe('must change a password set by someone else', () => {
  it('answers mustChangePassword, 403 elsewhere until changed', async () => {
    const admin = await t.tokenFor('Admin');
    await call(admin, 'PUT', '/admin/security-settings', {
      twoFactorRoles: [],
      mustChangeSetPasswords: true,
    });
    const added = await call(admin, 'POST', '/admin/add-team-member', {
      name: 'New Hire',
      email: 'new.hire@example.com',
      password: 'a-good-long-password',
      type: 'Team',
    });
    expect(added.statusCode).toBe(200);
    const res = await login('new.hire@example.com');
    expect(res.json().data).toMatchObject({ mustChangePassword: true });
    const token = res.json().jwtToken as string;
    const blocked = await call(token, 'GET', '/admin/get-team-member-list');
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().message).toBe(AUTH_MSG.mustChangePassword);
    const changed = await call(token, 'POST', '/admin/change-password', {
      currentPassword: 'a-good-long-password',
      newPassword: 'my-very-own-passphrase',
    });
    expect(changed.statusCode).toBe(200);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/admin/admin-login',
      payload: { email: 'new.hire@example.com', password: 'my-very-own-passphrase' },
      remoteAddress: '10.71.0.1',
    });
    expect(again.json().data.mustChangePassword).toBeUndefined();
    expect((await call(again.json().jwtToken, 'GET', '/admin/get-team-member-list')).statusCode).toBe(200);
    await call(admin, 'PUT', '/admin/security-settings', {
      twoFactorRoles: [],
      mustChangeSetPasswords: false,
    });
  });
});

describe('password rules for new passwords', () => {
  it('refuses short, common and e-mail passwords; the demo password keeps working', async () => {
    const email = 'rules@example.com';
    await createStaff(email);
    const token = await signIn(email);
    const change = (newPassword: string) =>
      call(token, 'POST', '/admin/change-password', { currentPassword: 'a-good-long-password', newPassword });
    expect((await change('abc12')).json().message).toBe(MSG.newPasswordMin);
    expect((await change('abc1234')).json().message).toContain(AUTH_MSG.passwordMin8);
    expect((await change('password1')).json().message).toBe(AUTH_MSG.passwordBreached);
    expect((await change('12345678')).json().message).toBe(AUTH_MSG.passwordBreached);
    expect((await change('Rules@Example.com')).json().message).toBe(AUTH_MSG.passwordIsEmail);
    const add = await call(await t.tokenFor('Admin'), 'POST', '/admin/add-team-member', {
      name: 'Weak',
      email: 'weak@example.com',
      password: 'iloveyou',
      type: 'Team',
    });
    expect(add.json().message).toBe(AUTH_MSG.passwordBreached);
    const demo = await t.app.inject({
      method: 'POST',
      url: '/api/admin/admin-login',
      payload: { email: 'team@demo.test', password: 'demo-password' },
      remoteAddress: '10.72.0.1',
    });
    expect(demo.json().status).toBe(1);
  });
});

describe('sessions', () => {
  it('lists, ends, and expires sessions (idle 8 h, absolute 12 h)', async () => {
    const email = 'sessions@example.com';
    await createStaff(email);
    clockAt(0);
    const a = await signIn(email);
    const b = await signIn(email);
    const list = await call(a, 'GET', '/admin/sessions');
    expect(list.statusCode).toBe(200);
    const sessions = list.json().data as { id: string; current: boolean; device: string }[];
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(sessions[0]!.device).toBe('Chrome on Linux');
    const other = sessions.find((s) => !s.current)!;
    // Another (non-Admin) user cannot see or end them.
    const team = await t.tokenFor('Team');
    expect((await call(team, 'DELETE', `/admin/sessions/${other.id}`)).statusCode).toBe(404);
    expect((await call(team, 'GET', '/admin/sessions?userId=1')).statusCode).toBe(404);
    expect((await call(a, 'DELETE', '/admin/sessions/bad%00id')).statusCode).toBe(400);
    expect((await call(a, 'DELETE', `/admin/sessions/${other.id}`)).statusCode).toBe(200);
    expect((await call(b, 'GET', '/user_info')).statusCode).toBe(401);
    expect((await call(a, 'GET', '/user_info')).statusCode).toBe(200);

    // Idle: 8 hours without a request ends it.
    clockAt(0);
    const idle = await signIn(email);
    clockAt(8 * 3600 + 60);
    expect((await call(idle, 'GET', '/user_info')).statusCode).toBe(401);
    // Active all along: still ends at 12 hours.
    clockAt(0);
    const busy = await signIn(email);
    for (const h of [4, 8, 11.9]) {
      clockAt(h * 3600);
      expect((await call(busy, 'GET', '/user_info')).statusCode).toBe(200);
    }
    clockAt(12 * 3600 + 1);
    expect((await call(busy, 'GET', '/user_info')).statusCode).toBe(401);
  });

  it('an Admin ends anyone’s session', async () => {
    const email = 'ended.by.admin@example.com';
    const id = await createStaff(email);
    const token = await signIn(email);
    const admin = await t.tokenFor('Admin');
    const theirs = (await call(admin, 'GET', `/admin/sessions?userId=${id}`)).json().data as { id: string }[];
    expect(theirs).toHaveLength(1);
    expect((await call(admin, 'DELETE', `/admin/sessions/${theirs[0]!.id}`)).statusCode).toBe(200);
    expect((await call(token, 'GET', '/user_info')).statusCode).toBe(401);
  });
});

describe('sign-in notices by mail', () => {
  it('mails a sign-in from a new device and a password change, through a real SMTP server', async () => {
    const email = 'noticed@example.com';
    await createStaff(email);
    await t.database.sql.query("update staff_notices set status = 'sent'");
    await login(email);
    await login(email); // same device: no second notice
    await login(email, {}, 'Mozilla/5.0 (Windows NT 10.0) Firefox/130.0');
    const sender = createMailSender(t.config);
    try {
      expect(await deliverStaffNotices(t.database.db, sender)).toBe(2);
    } finally {
      sender.close();
    }
    const mails = (await smtp.waitFor(2)).filter((m) => m.to && JSON.stringify(m.to).includes(email));
    expect(mails.map((m) => m.subject)).toEqual([
      'New sign-in to your ED-Card account',
      'New sign-in to your ED-Card account',
    ]);
    expect(mails[1]!.text).toContain('Firefox on Windows');
  });
});
