import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe } from 'vitest';
import { postgresAuditStore } from '../../src/stores/postgres/index.ts';
import { auditStoreContract } from './audit-store-contract.ts';
import { closedPort, serviceAvailable } from './support/service-available.ts';

const at = (port: number) => `postgres://postgres@127.0.0.1:${port}/test`;
const up = await serviceAvailable('PostgreSQL', 5432);
const deadPort = await closedPort();

// Skipped (with a message) when no PostgreSQL answers outside CI; under CI=true it fails the run.
describe.skipIf(!up)('postgres', () => {
  auditStoreContract('postgres', async () => {
    const table = `rxagent_test_audit_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const key = randomUUID();
    const admin = new pg.Pool({ connectionString: at(5432) });
    return {
      kind: 'postgres',
      target: at(5432),
      name: table,
      key,
      open: (other) => postgresAuditStore({ connectionString: at(5432), table, key: other ?? key }),
      tamper: async (seq, line) => {
        await admin.query(`UPDATE "${table}" SET entry = $2 WHERE seq = $1`, [seq, line]);
      },
      unreachable: () => postgresAuditStore({ connectionString: at(deadPort), table, key }),
      cleanup: async () => {
        await admin.query(`DROP TABLE IF EXISTS "${table}"`);
        await admin.end();
      },
    };
  });
});
