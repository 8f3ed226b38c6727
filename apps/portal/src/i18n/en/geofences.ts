export const geofences = {
  draw: {
    title: 'Draw the zone',
    hint: 'Click on the map to add points; switch to circle to drop a centre and drag the radius.',
    polygon: 'Polygon',
    circle: 'Circle',
    clear: 'Clear',
    undo: 'Undo point',
    required: 'Draw the zone on the map',
  },
  events: { title: 'Geofence events', entry: 'Entry', exit: 'Exit', salik: 'Salik toll crossings' },
} as const;
