import type { Queryable } from '../storage/db';
import { hashPassword } from '../auth/crypto';

/** Luhn check digit, so demo IMEIs are valid 15-digit IMEIs. */
export function luhnDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

export function demoImei(n: number): string {
  const body = `35630704${String(n).padStart(6, '0')}`;
  return body + luhnDigit(body);
}

export const DEMO_EMAIL = 'demo@fleet.test';
export const DEMO_COMPANY = 'Demo Transport';
/** The second, unrelated demo company (issue 18: tenancy across two real companies). */
export const SECOND_COMPANY = 'Gulf Freight Services';
export const SECOND_EMAIL = 'admin@gulf-freight.test';

const DAY_MS = 86_400_000;
/** A date `days` from `now` as YYYY-MM-DD (documents that expire soon, so the expiry alerts have work). */
const dateIn = (now: number, days: number) => new Date(now + days * DAY_MS).toISOString().slice(0, 10);

const DEVICE_TYPES = [
  'teltonika',
  'teltonika',
  'teltonika',
  'ruptela',
  'gosafe',
  'istartek',
  'teltonika',
  'door_technologies',
];
const VEHICLE_TYPES = ['bus', 'bus', 'bus', 'car', 'bus', 'truck', 'car', 'motorcycle', 'bus', 'car'];
const MAKES: Record<string, [string, string]> = {
  bus: ['Ashok Leyland', 'Falcon'],
  car: ['Toyota', 'Camry'],
  truck: ['Isuzu', 'NPR'],
  motorcycle: ['Honda', 'CB150'],
};
const FIRST = ['Omar', 'Ahmed', 'Yousef', 'Khalid', 'Rashid', 'Saeed', 'Hamad', 'Faisal', 'Ali', 'Majid'];
const FIRST_AR = ['عمر', 'أحمد', 'يوسف', 'خالد', 'راشد', 'سعيد', 'حمد', 'فيصل', 'علي', 'ماجد'];
const LAST = ['Al Mansoori', 'Al Nuaimi', 'Khan', 'Haddad', 'Saleh', 'Qasim', 'Farouk', 'Nasser'];
const KIDS = [
  'Layla',
  'Maryam',
  'Zayed',
  'Noor',
  'Hessa',
  'Sultan',
  'Aisha',
  'Hamdan',
  'Fatima',
  'Mohammed',
  'Sara',
  'Rayan',
];

async function one<T>(db: Queryable, sql: string, params: unknown[]): Promise<T> {
  return (await db.query<T>(sql, params))[0]!;
}

export interface SeedResult {
  seeded: boolean;
  companyUuid?: string;
}

/**
 * First-start demo (issue 4 "Running it"): Demo Transport with two stations, branches, schools,
 * 50 vehicles with devices of mixed types, drivers, passengers, guardians, supervisors, geofences
 * and scheduled trips, and the super admin demo@fleet.test. Runs only on an empty database.
 * Deterministic (no randomness) so every fresh start shows the same demo.
 */
export async function seedDemo(
  db: Queryable & { transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> },
  password: string,
  now = Date.now(),
): Promise<SeedResult> {
  const [existing] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM transport_companies');
  if ((existing?.n ?? 0) > 0) return { seeded: false };
  const hash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const company = await one<{ id: number; uuid: string }>(
      tx,
      `INSERT INTO transport_companies (name, name_ar, country_code, features, settings, configurations)
       VALUES ($1, 'شركة النقل التجريبية', 'AE', $2, $3, $4) RETURNING id, uuid`,
      [
        DEMO_COMPANY,
        JSON.stringify({
          emergency_driver_alert_enabled: true,
          geofence_events_enabled: true,
          advanced_fuel_report_enabled: true,
          engine_device_enabled: true,
          wheel_dashboard_enabled: true,
        }),
        JSON.stringify({ timezone: 'Asia/Dubai', currency: 'AED', speed_limit: 100 }),
        JSON.stringify({ location_page_size: 500 }),
      ],
    );
    const c = company.id;
    const stations = [];
    for (const [name, ar] of [
      ['Dubai Station', 'محطة دبي'],
      ['Sharjah Station', 'محطة الشارقة'],
    ]) {
      stations.push(
        await one<{ id: number }>(
          tx,
          'INSERT INTO sub_companies (company_id, name, name_ar) VALUES ($1, $2, $3) RETURNING id',
          [c, name, ar],
        ),
      );
    }
    const places = [
      ['Al Quoz Depot', 25.1376, 55.2298],
      ['Deira Depot', 25.2697, 55.3095],
      ['Al Nahda Depot', 25.2925, 55.3716],
      ['Muwaileh Depot', 25.2915, 55.4672],
    ] as const;
    const branches: { id: number; station: number; lat: number; lng: number }[] = [];
    for (const [i, [name, lat, lng]] of places.entries()) {
      const station = stations[i < 2 ? 0 : 1]!.id;
      const b = await one<{ id: number }>(
        tx,
        `INSERT INTO branches (company_id, sub_company_id, name, description, location) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [
          c,
          station,
          name,
          `${name} and workshop`,
          JSON.stringify({ latitude: lat, longitude: lng, address: name }),
        ],
      );
      branches.push({ id: b.id, station, lat, lng });
    }
    const schoolNames = [
      'Al Safa Primary School',
      'Deira International School',
      'Al Nahda Academy',
      'Muwaileh Secondary School',
    ];
    const schools: { id: number; branch: number; station: number }[] = [];
    for (const [i, b] of branches.entries()) {
      const s = await one<{ id: number }>(
        tx,
        `INSERT INTO schools (company_id, sub_company_id, branch_id, name, code, type, data) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [
          c,
          b.station,
          b.id,
          schoolNames[i],
          `SCH-${i + 1}`,
          i % 2 ? 'private' : 'public',
          JSON.stringify({
            education_level: ['primary', 'all', 'secondary', 'secondary'][i],
            students_capacity: 600 + i * 150,
            opening_time: '07:30:00',
            closing_time: '14:30:00',
            special_needs_support: i === 0,
            city: i < 2 ? 'Dubai' : 'Sharjah',
            country: 'United Arab Emirates',
            location: { latitude: b.lat + 0.01, longitude: b.lng + 0.01 },
          }),
        ],
      );
      schools.push({ id: s.id, branch: b.id, station: b.station });
    }
    // Devices and vehicles.
    const vehicles: { id: number; branch: number; station: number; school: number }[] = [];
    for (let i = 0; i < 50; i++) {
      const s = schools[i % 4]!;
      const imei = demoImei(i + 1);
      const dtype = DEVICE_TYPES[i % DEVICE_TYPES.length]!;
      await tx.query(
        `INSERT INTO devices (company_id, sub_company_id, branch_id, imei, type, make, model, sim, data)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          c,
          s.station,
          s.branch,
          imei,
          dtype,
          dtype === 'teltonika'
            ? 'Teltonika'
            : dtype === 'door_technologies'
              ? 'Door Technologies'
              : dtype[0]!.toUpperCase() + dtype.slice(1),
          {
            teltonika: 'FMB920',
            ruptela: 'FM-Eco4',
            gosafe: 'G737',
            istartek: 'VT600',
            door_technologies: 'DT-100',
          }[dtype],
          `+9715${String(50_000_000 + i).slice(0, 8)}`,
          JSON.stringify({
            sim_card_number: `8997101${String(1_000_000_000 + i)}`,
            expiration_date: '2027-12-31',
          }),
        ],
      );
      const vtype = VEHICLE_TYPES[i % VEHICLE_TYPES.length]!;
      const [make, model] = MAKES[vtype]!;
      const v = await one<{ id: number }>(
        tx,
        `INSERT INTO vehicles (company_id, sub_company_id, branch_id, school_id, license_plate_number, type, make, model, device_imei, data)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
        [
          c,
          s.station,
          s.branch,
          vtype === 'bus' ? s.id : null,
          `${String.fromCharCode(65 + (i % 26))} ${10_000 + i * 37}`,
          vtype,
          make,
          model,
          imei,
          JSON.stringify({
            license_plate_state_code: i % 4 < 2 ? 'DXB' : 'SHJ',
            license_plate_category: 'Private',
            year: 2018 + (i % 7),
            seat_capacity: vtype === 'bus' ? 40 : vtype === 'motorcycle' ? 2 : 5,
            fuel_tank_capacity: vtype === 'bus' ? 200 : 60,
            registration_number: `REG-${1000 + i}`,
            registration_expiry: i === 13 ? dateIn(now, 19) : `2027-0${1 + (i % 9)}-15`,
            insurance_company: 'Oman Insurance',
            insurance_policy_number: `POL-${5000 + i}`,
            insurance_expiry:
              i === 2 ? dateIn(now, 8) : i === 27 ? dateIn(now, -3) : `2027-0${1 + (i % 9)}-20`,
            speed_limit: vtype === 'bus' ? 80 : null,
          }),
        ],
      );
      vehicles.push({ id: v.id, branch: s.branch, station: s.station, school: s.id });
    }
    // Drivers, 40 of them on vehicles.
    for (let i = 0; i < 44; i++) {
      const v = vehicles[i % 50]!;
      const d = await one<{ id: number }>(
        tx,
        `INSERT INTO drivers (company_id, sub_company_id, branch_id, first_name, last_name, email, phone, license_number, data)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
        [
          c,
          v.station,
          v.branch,
          FIRST[i % FIRST.length],
          LAST[i % LAST.length],
          `driver${i + 1}@demo.fleet.test`,
          `+97150${String(1_000_000 + i)}`,
          `DL-${20_000 + i}`,
          JSON.stringify({
            first_name_ar: FIRST_AR[i % FIRST_AR.length],
            gender: 'male',
            nationality: 'AE',
            license_expiry: i === 5 ? dateIn(now, 12) : `2028-0${1 + (i % 9)}-01`,
          }),
        ],
      );
      if (i < 40) await tx.query('UPDATE vehicles SET driver_id = $1 WHERE id = $2', [d.id, v.id]);
    }
    // Guardians, passengers, supervisors.
    const passengersBySchool = new Map<number, number[]>();
    for (let i = 0; i < 60; i++) {
      const s = schools[i % 4]!;
      const g = await one<{ id: number }>(
        tx,
        `INSERT INTO guardians (company_id, sub_company_id, branch_id, school_id, first_name, last_name, phone, email, data)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
        [
          c,
          s.station,
          s.branch,
          s.id,
          FIRST[(i + 3) % FIRST.length],
          LAST[i % LAST.length],
          `+97155${String(2_000_000 + i)}`,
          `guardian${i + 1}@demo.fleet.test`,
          JSON.stringify({ relationship: i % 3 ? 'father' : 'mother', notify_on_approach: true }),
        ],
      );
      const p = await one<{ id: number }>(
        tx,
        `INSERT INTO passengers (company_id, sub_company_id, branch_id, school_id, first_name, last_name, data)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [
          c,
          s.station,
          s.branch,
          s.id,
          KIDS[i % KIDS.length],
          LAST[i % LAST.length],
          JSON.stringify({
            student_number: `ST-${3000 + i}`,
            grade: `Grade ${1 + (i % 12)}`,
            special_needs: i % 17 === 0,
          }),
        ],
      );
      await tx.query('INSERT INTO passenger_guardians (passenger_id, guardian_id) VALUES ($1, $2)', [
        p.id,
        g.id,
      ]);
      passengersBySchool.set(s.id, [...(passengersBySchool.get(s.id) ?? []), p.id]);
    }
    for (let i = 0; i < 10; i++) {
      const v = vehicles[i * 5]!;
      await tx.query(
        `INSERT INTO supervisors (company_id, sub_company_id, branch_id, school_id, vehicle_id, first_name, last_name, phone, data)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          c,
          v.station,
          v.branch,
          v.school,
          v.id,
          ['Huda', 'Reem', 'Amal', 'Mona', 'Dana'][i % 5],
          LAST[i % LAST.length],
          `+97156${String(3_000_000 + i)}`,
          JSON.stringify({ gender: 'female' }),
        ],
      );
    }
    // Geofences around the depots and schools.
    for (const [i, b] of branches.entries()) {
      await tx.query(
        `INSERT INTO geofences (company_id, sub_company_id, branch_id, name, type, shape, geometry, min_lat, min_lng, max_lat, max_lng, data)
         VALUES ($1, $2, $3, $4, 'depot', 'circle', $5, $6, $7, $8, $9, $10)`,
        [
          c,
          b.station,
          b.id,
          places[i]![0],
          JSON.stringify({ shape: 'circle', center: { latitude: b.lat, longitude: b.lng }, radius: 400 }),
          b.lat - 0.0036,
          b.lng - 0.004,
          b.lat + 0.0036,
          b.lng + 0.004,
          JSON.stringify({
            color: '#2563eb',
            purpose: 'depot',
            tracking_rules: ['entry', 'exit'],
            description: 'Vehicle depot',
          }),
        ],
      );
    }
    const zone = [
      [25.2, 55.26],
      [25.2, 55.3],
      [25.23, 55.3],
      [25.23, 55.26],
    ];
    await tx.query(
      `INSERT INTO geofences (company_id, name, type, shape, geometry, min_lat, min_lng, max_lat, max_lng, data)
       VALUES ($1, 'Downtown restricted zone', 'zone', 'polygon', $2, 25.2, 55.26, 25.23, 55.3, $3)`,
      [
        c,
        JSON.stringify({
          shape: 'polygon',
          points: zone.map(([latitude, longitude]) => ({ latitude, longitude })),
        }),
        JSON.stringify({
          color: '#dc2626',
          purpose: 'restricted',
          subcategory: 'trucks',
          tracking_rules: ['entry'],
          description: 'No heavy vehicles',
        }),
      ],
    );
    // Scheduled school trips: one per school bus of the first eight buses.
    const buses = vehicles.filter((_, i) => VEHICLE_TYPES[i % VEHICLE_TYPES.length] === 'bus').slice(0, 8);
    for (const [i, v] of buses.entries()) {
      const kids = (passengersBySchool.get(v.school) ?? []).splice(0, 6);
      const [drv] = await tx.query<{ driver_id: number | null }>(
        'SELECT driver_id FROM vehicles WHERE id = $1',
        [v.id],
      );
      const t = await one<{ id: number }>(
        tx,
        `INSERT INTO scheduled_trips (company_id, sub_company_id, branch_id, school_id, name, type, vehicle_id, driver_id, departure_time, return_time, data)
         VALUES ($1, $2, $3, $4, $5, 'round', $6, $7, $8, '14:45:00', $9) RETURNING id`,
        [
          c,
          v.station,
          v.branch,
          v.school,
          `School run ${i + 1}`,
          v.id,
          drv?.driver_id ?? null,
          `06:${String(15 + i * 3).padStart(2, '0')}:00`,
          JSON.stringify({ start_date: '2026-09-01', end_date: '2027-06-30', days_of_week: [1, 2, 3, 4, 5] }),
        ],
      );
      const branch = branches.find((b) => b.id === v.branch)!;
      for (let s = 0; s < 3; s++) {
        const stop = await one<{ id: number }>(
          tx,
          `INSERT INTO scheduled_trip_stops (scheduled_trip_id, position, name, latitude, longitude, arrival_offset_minutes)
           VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
          [
            t.id,
            s,
            `Stop ${s + 1}`,
            branch.lat + 0.005 * (s + 1),
            branch.lng + 0.004 * (s + 1),
            10 * (s + 1),
          ],
        );
        for (const kid of kids.slice(s * 2, s * 2 + 2)) {
          await tx.query(
            'INSERT INTO scheduled_trip_passengers (scheduled_trip_id, passenger_id, stop_id) VALUES ($1, $2, $3)',
            [t.id, kid, stop.id],
          );
        }
      }
    }
    const user = await one<{ id: number }>(
      tx,
      `INSERT INTO users (email, name, password_hash, is_super_admin, phone) VALUES ($1, 'Demo Admin', $2, true, '+971500000000') RETURNING id`,
      [DEMO_EMAIL, hash],
    );
    await tx.query(
      `INSERT INTO memberships (user_id, company_id, user_type, role) VALUES ($1, $2, 'super_admin', 'Owner')`,
      [user.id, c],
    );
    await tx.query(
      `INSERT INTO notification_rules (company_id, name, type, params) VALUES
         ($1, 'Overspeed', 'overspeed', '{"speed_limit": 100, "channels": ["in_app", "push"]}'),
         ($1, 'Emergency button', 'emergency_button', '{"channels": ["in_app", "push"]}'),
         ($1, 'Documents expiring', 'document_expiry', '{"days_ahead": 30, "channels": ["in_app"]}'),
         ($1, 'School run late', 'trip_delayed', '{"channels": ["in_app"]}'),
         ($1, 'School run missed', 'trip_missed', '{"channels": ["in_app"]}')`,
      [c],
    );
    await seedSecondCompany(tx, hash);
    return { seeded: true, companyUuid: company.uuid };
  });
}

/**
 * Gulf Freight Services: a small freight company in Jebel Ali with its own admin (admin@gulf-freight.test,
 * same password as the demo), 8 vehicles with Teltonika and Ruptela devices, drivers, a depot geofence
 * and an overspeed rule. It shares nothing with Demo Transport, so every tenancy rule is exercised
 * between two real companies (issue 18). The demo super admin sees both; its admin only its own.
 */
async function seedSecondCompany(tx: Queryable, hash: string): Promise<void> {
  const company = await one<{ id: number }>(
    tx,
    `INSERT INTO transport_companies (name, name_ar, country_code, features, settings, configurations)
     VALUES ($1, 'خدمات الخليج للشحن', 'AE', $2, $3, '{}') RETURNING id`,
    [
      SECOND_COMPANY,
      JSON.stringify({ geofence_events_enabled: true, advanced_fuel_report_enabled: true }),
      JSON.stringify({ timezone: 'Asia/Dubai', currency: 'AED', speed_limit: 100 }),
    ],
  );
  const c = company.id;
  const station = await one<{ id: number }>(
    tx,
    `INSERT INTO sub_companies (company_id, name, name_ar) VALUES ($1, 'Jebel Ali', 'جبل علي') RETURNING id`,
    [c],
  );
  const [lat, lng] = [25.0118, 55.113];
  const branch = await one<{ id: number }>(
    tx,
    `INSERT INTO branches (company_id, sub_company_id, name, description, location) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [
      c,
      station.id,
      'Jebel Ali Yard',
      'Freight yard',
      JSON.stringify({ latitude: lat, longitude: lng, address: 'Jebel Ali Free Zone' }),
    ],
  );
  const types = ['truck', 'truck', 'truck', 'car', 'truck', 'car', 'truck', 'car'];
  const vehicleIds: number[] = [];
  for (const [i, vtype] of types.entries()) {
    const imei = demoImei(101 + i);
    const dtype = i % 3 === 2 ? 'ruptela' : 'teltonika';
    await tx.query(
      `INSERT INTO devices (company_id, sub_company_id, branch_id, imei, type, make, model, sim, data)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, '{}')`,
      [
        c,
        station.id,
        branch.id,
        imei,
        dtype,
        dtype === 'ruptela' ? 'Ruptela' : 'Teltonika',
        dtype === 'ruptela' ? 'FM-Eco4' : 'FMB140',
        `+9715${60_000_000 + i}`,
      ],
    );
    const [make, model] = vtype === 'truck' ? ['Mitsubishi', 'Fuso Canter'] : ['Nissan', 'Urvan'];
    const v = await one<{ id: number }>(
      tx,
      `INSERT INTO vehicles (company_id, sub_company_id, branch_id, license_plate_number, type, make, model, device_imei, data)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [
        c,
        station.id,
        branch.id,
        `G ${70_100 + i * 13}`,
        vtype,
        make,
        model,
        imei,
        JSON.stringify({
          license_plate_state_code: 'DXB',
          license_plate_category: 'Commercial',
          year: 2019 + (i % 5),
          fuel_tank_capacity: vtype === 'truck' ? 100 : 70,
          registration_expiry: `2027-1${i % 3}-10`,
        }),
      ],
    );
    vehicleIds.push(v.id);
  }
  const names = [
    ['Imran', 'Siddiqui', 'عمران'],
    ['Joseph', 'Mathew', 'جوزيف'],
    ['Tariq', 'Aziz', 'طارق'],
    ['Bilal', 'Hussain', 'بلال'],
    ['Anil', 'Kumar', 'أنيل'],
    ['Samir', 'Fahmy', 'سمير'],
  ];
  for (const [i, [first, last, firstAr]] of names.entries()) {
    const d = await one<{ id: number }>(
      tx,
      `INSERT INTO drivers (company_id, sub_company_id, branch_id, first_name, last_name, email, phone, license_number, data)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [
        c,
        station.id,
        branch.id,
        first,
        last,
        `driver${i + 1}@gulf-freight.test`,
        `+97152${String(4_000_000 + i)}`,
        `DL-${70_000 + i}`,
        JSON.stringify({ first_name_ar: firstAr, gender: 'male', license_expiry: '2028-05-01' }),
      ],
    );
    await tx.query('UPDATE vehicles SET driver_id = $1 WHERE id = $2', [d.id, vehicleIds[i]]);
  }
  await tx.query(
    `INSERT INTO geofences (company_id, sub_company_id, branch_id, name, type, shape, geometry, min_lat, min_lng, max_lat, max_lng, data)
     VALUES ($1, $2, $3, 'Jebel Ali Yard', 'depot', 'circle', $4, $5, $6, $7, $8, $9)`,
    [
      c,
      station.id,
      branch.id,
      JSON.stringify({ shape: 'circle', center: { latitude: lat, longitude: lng }, radius: 400 }),
      lat - 0.0036,
      lng - 0.004,
      lat + 0.0036,
      lng + 0.004,
      JSON.stringify({ color: '#0f766e', purpose: 'depot', tracking_rules: ['entry', 'exit'] }),
    ],
  );
  const user = await one<{ id: number }>(
    tx,
    `INSERT INTO users (email, name, password_hash, is_super_admin, phone) VALUES ($1, 'Gulf Freight Admin', $2, false, '+971520000000') RETURNING id`,
    [SECOND_EMAIL, hash],
  );
  await tx.query(
    `INSERT INTO memberships (user_id, company_id, user_type, role) VALUES ($1, $2, 'admin', 'Admin')`,
    [user.id, c],
  );
  await tx.query(
    `INSERT INTO notification_rules (company_id, name, type, params) VALUES
       ($1, 'Overspeed', 'overspeed', '{"speed_limit": 100, "channels": ["in_app"]}')`,
    [c],
  );
}
