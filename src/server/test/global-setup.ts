import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrateDatabase, openDatabase } from '../db/client.js';
import { seedStaffAndGateways } from '../db/seed.js';

/**
 * Migrates one template database per run: a PGlite data-dir dump that every test file loads
 * (≈1 s instead of ≈6 s to create and migrate), and with TEST_DATABASE_URL a PostgreSQL template
 * database that every test file clones with CREATE DATABASE … TEMPLATE.
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const name = `edcard_tmpl_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name}`);
    const database = await openDatabase({ databaseUrl: withDatabase(url, name), poolSize: 2 });
    await migrateDatabase(database);
    await seedStaffAndGateways(database);
    await database.close();
    project.provide('pgTemplate', name);
    return async () => {
      await admin.query(`drop database if exists ${name}`).catch(() => {});
      await admin.end();
    };
  }
  const database = await openDatabase({ memory: true });
  await migrateDatabase(database);
  await seedStaffAndGateways(database);
  const dump = await database.pglite!.dumpDataDir('none');
  const file = path.join(os.tmpdir(), `edcard-template-${process.pid}.tar`);
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('pgliteTemplate', file);
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgTemplate: string;
  }
}
