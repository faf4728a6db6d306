import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** The area boundary check of `npm run validate` (scripts/check-boundaries.mjs, decision 232). */
const SCRIPT = path.resolve('scripts/check-boundaries.mjs');
const dirs: string[] = [];

function check(root?: string) {
  const res = spawnSync(process.execPath, [SCRIPT, ...(root ? ['--root', root] : [])], { encoding: 'utf8' });
  return { code: res.status, out: `${res.stdout}${res.stderr}` };
}

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'boundaries-'));
  dirs.push(root);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  return root;
}

/** `${expr}` as source text, for the fixtures' own template placeholders. */
const ph = (expr: string) => `\${${expr}}`;

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('area boundaries', () => {
  it('hold in this repository', () => {
    const { code, out } = check();
    expect(out).toContain('Area boundaries hold.');
    expect(code).toBe(0);
  });

  it('refuse order writes outside the domain, in Drizzle calls and in SQL', () => {
    const root = tree({
      'src/server/orders/commands.ts': 'await tx.insert(orderEvents).values(events);',
      'src/server/mail/sneaky.ts': 'await tx.insert(orderEvents).values({ orderId, action: "mail" });',
      'src/server/reports/raw.ts': 'await db.execute(sql`update orders set assigned_to = null`);',
      'src/server/reports/read.ts': 'await db.select().from(orders);',
      'src/server/mail/sneaky.test.ts': 'await tx.insert(orderEvents).values({});',
      'src/server/invoices/rules.ts': "import { enforceRules } from '../orders/rules.js';",
    });
    const { code, out } = check(root);
    expect(code).toBe(1);
    expect(out).toContain(
      'src/server/mail/sneaky.ts: writes orders or order_events outside src/server/orders/',
    );
    expect(out).toContain('src/server/reports/raw.ts: writes orders or order_events');
    expect(out).toContain("src/server/invoices/rules.ts: imports orders/rules.ts, the domain's own checks");
    expect(out).not.toContain('src/server/orders/commands.ts:');
    expect(out).not.toContain('src/server/reports/read.ts:');
    expect(out).not.toContain('sneaky.test.ts');
    expect(out).toContain('3 boundary breach(es)');
  });

  it('refuse a customer mail written outside the one writer, in Drizzle calls and in SQL', () => {
    const root = tree({
      'src/server/mail/outbox.ts': 'await tx.insert(mailLog).values({ ...mail, status: "queued" });',
      'src/server/payments/sneaky.ts': 'await tx.insert(mailLog).values({ orderId, kind: "refund" });',
      'src/server/mail/raw.ts': 'await tx.execute(sql`insert into mail_log (order_id) values (1)`);',
      'src/server/mail/read.ts': 'await db.select().from(mailLog);',
    });
    const { code, out } = check(root);
    expect(code).toBe(1);
    expect(out).toContain('src/server/payments/sneaky.ts: writes mail_log outside src/server/mail/outbox.ts');
    expect(out).toContain('src/server/mail/raw.ts: writes mail_log outside');
    expect(out).not.toContain('src/server/mail/outbox.ts:');
    expect(out).not.toContain('read.ts');
    expect(out).toContain('2 boundary breach(es)');
  });

  it('refuse an order status or processing mode spelled by hand in SQL text, not in code or messages', () => {
    const root = tree({
      'src/server/reports/raw.ts': [
        "const a = sql`select 1 from orders where process_status = 'Completed'`;",
        "const b = `select count(*) from orders\n  where processing_mode <> 'Priority'`;",
        "const c = \"update x set y = 1 where process_status in ('Refunds', 'Refunded')\";",
        `const d = sql\`${ph('t.processStatus')} not in ('Deleted')\`;`,
      ].join('\n'),
      'src/server/reports/good.ts': [
        `const a = sql\`select 1 from orders where process_status = ${ph("sqlValue('Completed')")}\`;`,
        "if (order.processStatus === 'Completed' && mode !== 'Priority') notes.push('done');",
        "const label = `Move to 'Completed' first`;",
        `const e = sql\`select 1 from order_events where action = 'status' and to_value = ${ph('status')}\`;`,
      ].join('\n'),
      'src/server/reports/raw.test.ts': "await db.execute(sql`select 1 where process_status = 'New'`);",
      'src/client/orders/queue.tsx': "const q = `where process_status = 'New'`;",
    });
    const { code, out } = check(root);
    expect(code).toBe(1);
    for (const line of [1, 2, 4, 5]) {
      expect(out).toContain(
        `src/server/reports/raw.ts:${line}: an order status or processing mode written by hand`,
      );
    }
    expect(out).not.toContain('good.ts');
    expect(out).not.toContain('raw.test.ts');
    expect(out).not.toContain('queue.tsx');
    expect(out).toContain('4 boundary breach(es)');
  });

  it("refuse a client area's import of another area's internals, not of its API, pages or shared layers", () => {
    const root = tree({
      'src/client/team/team-page.tsx': [
        "import { api } from '../transport/api';",
        "import { getStore } from '../state/store';",
        "import { Thing } from '../components/thing';",
        "import { useOrders } from '../orders/orders-api';",
        "import { Component } from '../order-detail/order-detail-page';",
        "import { secret } from '../orders/list-controls';",
      ].join('\n'),
      'src/client/components/widget.tsx': "import { x } from '../reports/report-screen';",
      'src/client/transport/api.ts': "import { getStore } from '../state/store';",
    });
    const { code, out } = check(root);
    expect(code).toBe(1);
    expect(out).toContain(
      'src/client/team/team-page.tsx: imports orders/list-controls, an internal of the orders area',
    );
    expect(out).toContain('src/client/components/widget.tsx: a shared component imports the reports area');
    expect(out).not.toContain('orders-api');
    expect(out).not.toContain('order-detail-page');
    expect(out).toContain('src/client/transport/api.ts: the transport layer imports state/store');
    expect(out).toContain('3 boundary breach(es)');
  });
});
