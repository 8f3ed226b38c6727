/**
 * Place names of the offline basemap, in English and Arabic, with a rank that decides from which
 * zoom each is shown (1: capitals and emirates, from zoom 6; 2: cities, from 9; 3: districts,
 * from 11). Positions are the usual centres of the places (public knowledge, no dataset copied).
 */
export interface BasemapPlace {
  en: string;
  ar: string;
  lat: number;
  lng: number;
  rank: 1 | 2 | 3;
}

export const basemapPlaces: readonly BasemapPlace[] = [
  { en: 'Abu Dhabi', ar: 'أبوظبي', lat: 24.4539, lng: 54.3773, rank: 1 },
  { en: 'Dubai', ar: 'دبي', lat: 25.2048, lng: 55.2708, rank: 1 },
  { en: 'Sharjah', ar: 'الشارقة', lat: 25.3463, lng: 55.4209, rank: 1 },
  { en: 'Ajman', ar: 'عجمان', lat: 25.4052, lng: 55.5136, rank: 1 },
  { en: 'Umm Al Quwain', ar: 'أم القيوين', lat: 25.5647, lng: 55.5552, rank: 1 },
  { en: 'Ras Al Khaimah', ar: 'رأس الخيمة', lat: 25.8007, lng: 55.9762, rank: 1 },
  { en: 'Fujairah', ar: 'الفجيرة', lat: 25.1288, lng: 56.3265, rank: 1 },
  { en: 'Doha', ar: 'الدوحة', lat: 25.2854, lng: 51.531, rank: 1 },
  { en: 'Manama', ar: 'المنامة', lat: 26.2285, lng: 50.586, rank: 1 },
  { en: 'Muscat', ar: 'مسقط', lat: 23.588, lng: 58.3829, rank: 1 },
  { en: 'Riyadh', ar: 'الرياض', lat: 24.7136, lng: 46.6753, rank: 1 },
  { en: 'Al Ain', ar: 'العين', lat: 24.2075, lng: 55.7447, rank: 2 },
  { en: 'Hatta', ar: 'حتا', lat: 24.7969, lng: 56.1175, rank: 2 },
  { en: 'Khor Fakkan', ar: 'خورفكان', lat: 25.3396, lng: 56.3563, rank: 2 },
  { en: 'Dhaid', ar: 'الذيد', lat: 25.2881, lng: 55.8819, rank: 2 },
  { en: 'Jebel Ali', ar: 'جبل علي', lat: 25.0118, lng: 55.0613, rank: 2 },
  { en: 'Dammam', ar: 'الدمام', lat: 26.4207, lng: 50.0888, rank: 2 },
  { en: 'Sohar', ar: 'صحار', lat: 24.3643, lng: 56.7468, rank: 2 },
  { en: 'Dubai Marina', ar: 'دبي مارينا', lat: 25.0805, lng: 55.1403, rank: 3 },
  { en: 'Al Barsha', ar: 'البرشاء', lat: 25.1136, lng: 55.1963, rank: 3 },
  { en: 'Downtown Dubai', ar: 'وسط مدينة دبي', lat: 25.1972, lng: 55.2744, rank: 3 },
  { en: 'Deira', ar: 'ديرة', lat: 25.2711, lng: 55.3075, rank: 3 },
  { en: 'Al Qusais', ar: 'القصيص', lat: 25.2769, lng: 55.3814, rank: 3 },
  { en: 'Al Nahda', ar: 'النهدة', lat: 25.2925, lng: 55.3717, rank: 3 },
  { en: 'Al Majaz', ar: 'المجاز', lat: 25.3256, lng: 55.3846, rank: 3 },
  { en: 'Al Khan', ar: 'الخان', lat: 25.3317, lng: 55.3633, rank: 3 },
  { en: 'Muwaileh', ar: 'مويلح', lat: 25.3055, lng: 55.4600, rank: 3 },
  { en: 'Jumeirah', ar: 'جميرا', lat: 25.2115, lng: 55.2495, rank: 3 },
  { en: 'Al Quoz', ar: 'القوز', lat: 25.1426, lng: 55.2296, rank: 3 },
];
