/**
 * The demo logins, without the seed itself: `main.ts` prints them at start, and only an empty database
 * that is seeded loads the seed (and its data generator) at all.
 */
export const DEMO_PASSWORD = 'demo-password';
export const DEMO_USERS = [
  { name: 'Demo Admin', email: 'admin@demo.test', role: 'Admin' },
  { name: 'Demo Manager', email: 'manager@demo.test', role: 'Manager' },
  { name: 'Demo Team', email: 'team@demo.test', role: 'Team' },
  { name: 'Demo Telecaller', email: 'telecaller@demo.test', role: 'Telecaller' },
  { name: 'Demo Night Staff', email: 'night@demo.test', role: 'Night Staff' },
] as const;
