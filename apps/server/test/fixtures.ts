import type { Queryable } from '../src/storage/db';
import { hashToken, newToken } from '../src/auth/crypto';
import { passwordHash } from './harness';

export interface Org {
  id: number;
  uuid: string;
  stations: { id: number; uuid: string }[];
  branches: { id: number; uuid: string }[];
  schools: { id: number; uuid: string }[];
}

export interface Actor {
  id: number;
  uuid: string;
  email: string;
  token: string;
}

export interface World {
  a: Org;
  b: Org;
  users: Record<
    'super' | 'adminA' | 'adminB' | 'stationA1' | 'branchA1' | 'branchA2' | 'schoolA1' | 'multi' | 'noPerms',
    Actor
  >;
}

async function one<T>(db: Queryable, sql: string, params: unknown[]): Promise<T> {
  const rows = await db.query<T>(sql, params);
  return rows[0]!;
}

async function org(db: Queryable, name: string, stations: number): Promise<Org> {
  const c = await one<{ id: number; uuid: string }>(
    db,
    `INSERT INTO transport_companies (name, features) VALUES ($1, '{"emergency_driver_alert_enabled": true}') RETURNING id, uuid`,
    [name],
  );
  const o: Org = { ...c, stations: [], branches: [], schools: [] };
  for (let i = 1; i <= stations; i++) {
    const st = await one<{ id: number; uuid: string }>(
      db,
      `INSERT INTO sub_companies (company_id, name) VALUES ($1, $2) RETURNING id, uuid`,
      [c.id, `${name} station ${i}`],
    );
    const br = await one<{ id: number; uuid: string }>(
      db,
      `INSERT INTO branches (company_id, sub_company_id, name) VALUES ($1, $2, $3) RETURNING id, uuid`,
      [c.id, st.id, `${name} branch ${i}`],
    );
    const sc = await one<{ id: number; uuid: string }>(
      db,
      `INSERT INTO schools (company_id, sub_company_id, branch_id, name, type, data)
       VALUES ($1, $2, $3, $4, 'public', '{"education_level": "all"}') RETURNING id, uuid`,
      [c.id, st.id, br.id, `${name} school ${i}`],
    );
    o.stations.push(st);
    o.branches.push(br);
    o.schools.push(sc);
  }
  return o;
}

async function actor(
  db: Queryable,
  email: string,
  memberships: {
    company: Org;
    type: string;
    station?: number;
    branch?: number;
    school?: number;
    permissions?: string[];
  }[],
  superAdmin = false,
): Promise<Actor> {
  const u = await one<{ id: number; uuid: string }>(
    db,
    `INSERT INTO users (email, name, password_hash, is_super_admin) VALUES ($1, $2, $3, $4) RETURNING id, uuid`,
    [email, email.split('@')[0], await passwordHash(), superAdmin],
  );
  for (const m of memberships) {
    await db.query(
      `INSERT INTO memberships (user_id, company_id, user_type, sub_company_id, branch_id, school_id, permissions)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        u.id,
        m.company.id,
        m.type,
        m.station ?? null,
        m.branch ?? null,
        m.school ?? null,
        m.permissions ?? null,
      ],
    );
  }
  const token = newToken();
  await db.query(
    `INSERT INTO sessions (user_id, token_hash, company_id, expires_at) VALUES ($1, $2, $3, now() + interval '30 days')`,
    [u.id, hashToken(token), memberships.length === 1 ? memberships[0]!.company.id : null],
  );
  return { ...u, email, token };
}

/** Two companies (A with two stations/branches/schools, B with one) and a user of every kind. */
export async function buildWorld(db: Queryable): Promise<World> {
  const a = await org(db, 'Alpha', 2);
  const b = await org(db, 'Bravo', 1);
  return {
    a,
    b,
    users: {
      super: await actor(db, 'super@fleet.test', [], true),
      adminA: await actor(db, 'admin.a@fleet.test', [{ company: a, type: 'admin' }]),
      adminB: await actor(db, 'admin.b@fleet.test', [{ company: b, type: 'admin' }]),
      stationA1: await actor(db, 'station.a1@fleet.test', [
        { company: a, type: 'sub_company_admin', station: a.stations[0]!.id },
      ]),
      branchA1: await actor(db, 'branch.a1@fleet.test', [
        { company: a, type: 'branch_admin', station: a.stations[0]!.id, branch: a.branches[0]!.id },
      ]),
      branchA2: await actor(db, 'branch.a2@fleet.test', [
        { company: a, type: 'branch_admin', station: a.stations[1]!.id, branch: a.branches[1]!.id },
      ]),
      schoolA1: await actor(db, 'school.a1@fleet.test', [
        {
          company: a,
          type: 'school_admin',
          station: a.stations[0]!.id,
          branch: a.branches[0]!.id,
          school: a.schools[0]!.id,
        },
      ]),
      multi: await actor(db, 'multi@fleet.test', [
        { company: a, type: 'admin' },
        { company: b, type: 'admin' },
      ]),
      noPerms: await actor(db, 'noperms@fleet.test', [{ company: a, type: 'admin', permissions: [] }]),
    },
  };
}
