/**
 * Main roads of the offline basemap: hand-made polylines (latitude, longitude) along the motorways
 * and main streets of the UAE's cities and the Gulf capitals the demo drives in, drawn from public
 * map knowledge (no dataset copied; no npm package ships road geometry of the region). Schematic:
 * good to a few hundred metres, enough to place vehicles in their city and on their road, not for
 * navigation. The demo simulator's routes (apps/server/src/simulator/routes.ts) follow the same
 * roads, so its vehicles are drawn on them. Configure a tile server for street-level detail.
 */
export type RoadClass = 'motorway' | 'primary';

export interface BasemapRoad {
  /** Route number or street name, as signed. */
  ref: string;
  cls: RoadClass;
  points: readonly (readonly [number, number])[];
}

export const basemapRoads: readonly BasemapRoad[] = [
  {
    ref: 'E11',
    cls: 'motorway',
    points: [
      [24.4380, 54.4400], [24.4600, 54.6000], [24.6300, 54.7600], [24.7800, 54.9100], [24.9300, 55.0200],
      [24.9900, 55.0700], [25.0350, 55.1050], [25.0777, 55.1381], [25.0869, 55.1468], [25.0983, 55.1583],
      [25.1123, 55.1745], [25.1279, 55.1985], [25.1431, 55.2171], [25.1555, 55.2305], [25.1725, 55.2432],
      [25.1898, 55.2583], [25.2049, 55.2707], [25.2176, 55.2806], [25.2285, 55.2867], [25.2420, 55.2980],
      [25.2560, 55.3080], [25.2637, 55.3178],
    ],
  },
  {
    // Al Ittihad Road, Dubai (Deira) to Sharjah, continuing as the E11 through Ajman.
    ref: 'E11',
    cls: 'motorway',
    points: [
      [25.2637, 55.3178], [25.2700, 55.3300], [25.2780, 55.3460], [25.2860, 55.3620], [25.2950, 55.3760],
      [25.3060, 55.3880], [25.3180, 55.4000], [25.3330, 55.4150], [25.3520, 55.4300], [25.3750, 55.4450],
      [25.4000, 55.4700], [25.4350, 55.5000], [25.5000, 55.5700], [25.5600, 55.6400], [25.6600, 55.7600],
      [25.7800, 55.9400],
    ],
  },
  {
    ref: 'E311',
    cls: 'motorway',
    points: [
      [24.8900, 55.0000], [24.9800, 55.1100], [25.0300, 55.1800], [25.0600, 55.2400], [25.1100, 55.3100],
      [25.1700, 55.3600], [25.2300, 55.3900], [25.2800, 55.4100], [25.3000, 55.4450], [25.3300, 55.4900],
      [25.3700, 55.5300], [25.4200, 55.5700], [25.5000, 55.6300], [25.6300, 55.7700], [25.7600, 55.9600],
    ],
  },
  {
    ref: 'E611',
    cls: 'motorway',
    points: [
      [24.8700, 55.1500], [24.9500, 55.2700], [25.0300, 55.3700], [25.1200, 55.4500], [25.2100, 55.5000],
      [25.2900, 55.5400], [25.3600, 55.5800], [25.4400, 55.6300],
    ],
  },
  {
    ref: 'E44',
    cls: 'motorway',
    points: [
      [25.2200, 55.3300], [25.1800, 55.4000], [25.1200, 55.5200], [25.0500, 55.6800], [24.9700, 55.8300],
      [24.8800, 55.9800], [24.8000, 56.1200],
    ],
  },
  {
    ref: 'E66',
    cls: 'motorway',
    points: [
      [25.1900, 55.3300], [25.1200, 55.3800], [25.0000, 55.4700], [24.8700, 55.5700], [24.6500, 55.6500],
      [24.4300, 55.7000], [24.2300, 55.7500],
    ],
  },
  {
    ref: 'E88',
    cls: 'motorway',
    points: [
      [25.3300, 55.4500], [25.3100, 55.5800], [25.2900, 55.8800], [25.2200, 56.0800], [25.1300, 56.3300],
    ],
  },
  {
    ref: 'E10',
    cls: 'motorway',
    points: [[24.4380, 54.4400], [24.4700, 54.3800], [24.4900, 54.3600]],
  },
  {
    // Sheikh Rashid Road to Al Maktoum Bridge and Garhoud Bridge.
    ref: 'D89',
    cls: 'primary',
    points: [[25.2285, 55.2867], [25.2400, 55.3050], [25.2533, 55.3223], [25.2637, 55.3178]],
  },
  {
    ref: 'Garhoud Bridge',
    cls: 'primary',
    points: [[25.2150, 55.3120], [25.2316, 55.3355], [25.2450, 55.3480], [25.2528, 55.3644]],
  },
  {
    ref: 'Airport Road',
    cls: 'primary',
    points: [[25.2637, 55.3178], [25.2602, 55.3238], [25.2561, 55.3305], [25.2523, 55.3372], [25.2489, 55.3443], [25.2508, 55.3526], [25.2528, 55.3644]],
  },
  {
    ref: 'Al Wahda Street',
    cls: 'primary',
    points: [[25.3370, 55.3870], [25.3297, 55.3914], [25.3238, 55.3962], [25.3174, 55.4005], [25.3109, 55.4049], [25.3043, 55.4093], [25.2950, 55.4150]],
  },
  {
    ref: 'King Faisal Street',
    cls: 'primary',
    points: [[25.3600, 55.3850], [25.3450, 55.3850], [25.3300, 55.3780], [25.3150, 55.3700], [25.2950, 55.3640]],
  },
  {
    ref: 'Corniche Road',
    cls: 'primary',
    points: [[24.4764, 54.3213], [24.4806, 54.3297], [24.4853, 54.3384], [24.4897, 54.3468], [24.4942, 54.3553], [24.4988, 54.3643], [24.5034, 54.3722]],
  },
  {
    ref: 'Corniche',
    cls: 'primary',
    points: [[25.2951, 51.5392], [25.3013, 51.5343], [25.3075, 51.5295], [25.3152, 51.5248], [25.3218, 51.5246], [25.3282, 51.5269]],
  },
  {
    ref: 'King Fahd Road',
    cls: 'primary',
    points: [[24.6617, 46.6823], [24.6702, 46.6851], [24.6815, 46.6893], [24.6928, 46.6938], [24.7032, 46.6979], [24.7115, 46.6745], [24.7203, 46.6622]],
  },
];
