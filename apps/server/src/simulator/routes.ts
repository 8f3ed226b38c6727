/**
 * Bundled routes: hand-made polylines (latitude, longitude) along main roads of Gulf cities, drawn
 * from public map knowledge at street level, not copied from any dataset. Each route is driven back
 * and forth; `stops` are indexes of points where the vehicle halts (bus stops, school gates, depots).
 */
export interface SimRoute {
  name: string;
  city: string;
  /** Speed limit used for the overspeed episodes, km/h. */
  speedLimit: number;
  points: readonly (readonly [number, number])[];
  stops: readonly number[];
}

export const simRoutes: readonly SimRoute[] = [
  {
    name: 'Sheikh Zayed Road: Marina to Trade Centre',
    city: 'Dubai',
    speedLimit: 100,
    points: [
      [25.0777, 55.1381],
      [25.0869, 55.1468],
      [25.0983, 55.1583],
      [25.1123, 55.1745],
      [25.1279, 55.1985],
      [25.1431, 55.2171],
      [25.1555, 55.2305],
      [25.1725, 55.2432],
      [25.1898, 55.2583],
      [25.2049, 55.2707],
      [25.2176, 55.2806],
      [25.2285, 55.2867],
    ],
    stops: [0, 4, 8, 11],
  },
  {
    name: 'Deira: Al Rigga to Dubai Airport',
    city: 'Dubai',
    speedLimit: 80,
    points: [
      [25.2637, 55.3178],
      [25.2602, 55.3238],
      [25.2561, 55.3305],
      [25.2523, 55.3372],
      [25.2489, 55.3443],
      [25.2508, 55.3526],
      [25.2528, 55.3644],
    ],
    stops: [0, 3, 6],
  },
  {
    name: 'Corniche Road',
    city: 'Abu Dhabi',
    speedLimit: 80,
    points: [
      [24.4764, 54.3213],
      [24.4806, 54.3297],
      [24.4853, 54.3384],
      [24.4897, 54.3468],
      [24.4942, 54.3553],
      [24.4988, 54.3643],
      [24.5034, 54.3722],
    ],
    stops: [0, 3, 6],
  },
  {
    name: 'King Fahd Road: Olaya to Kingdom Centre',
    city: 'Riyadh',
    speedLimit: 100,
    points: [
      [24.6617, 46.6823],
      [24.6702, 46.6851],
      [24.6815, 46.6893],
      [24.6928, 46.6938],
      [24.7032, 46.6979],
      [24.7115, 46.6745],
      [24.7203, 46.6622],
    ],
    stops: [0, 2, 4, 6],
  },
  {
    name: 'Corniche: Museum of Islamic Art to West Bay',
    city: 'Doha',
    speedLimit: 80,
    points: [
      [25.2951, 51.5392],
      [25.3013, 51.5343],
      [25.3075, 51.5295],
      [25.3152, 51.5248],
      [25.3218, 51.5246],
      [25.3282, 51.5269],
    ],
    stops: [0, 3, 5],
  },
  {
    name: 'Al Wahda Street',
    city: 'Sharjah',
    speedLimit: 80,
    points: [
      [25.3297, 55.3914],
      [25.3238, 55.3962],
      [25.3174, 55.4005],
      [25.3109, 55.4049],
      [25.3043, 55.4093],
    ],
    stops: [0, 2, 4],
  },
];

const R = 6_371_000;
const rad = (d: number) => (d * Math.PI) / 180;

/** Great-circle distance in metres. */
export function distanceMeters(a: readonly [number, number], b: readonly [number, number]): number {
  const dLat = rad(b[0] - a[0]);
  const dLon = rad(b[1] - a[1]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(dLon / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Initial bearing a -> b in degrees (0 = north). */
export function bearing(a: readonly [number, number], b: readonly [number, number]): number {
  const y = Math.sin(rad(b[1] - a[1])) * Math.cos(rad(b[0]));
  const x =
    Math.cos(rad(a[0])) * Math.sin(rad(b[0])) -
    Math.sin(rad(a[0])) * Math.cos(rad(b[0])) * Math.cos(rad(b[1] - a[1]));
  return ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
}
