import { bearingDeg, haversineM, segmentIntersection, toLocalXY } from '../common/geo';
import type { PositionRecord } from '../common/types';
import { gateLine, type GateDirection, type GateLine, type SalikGate } from './gates';
import type { SalikFee, SalikTariffTable } from './tariff';

/**
 * Salik crossing detection per vehicle, streaming.
 *
 * For each pair of consecutive accepted positions of a vehicle, the segment between them is tested
 * against every gate line near it. A crossing in a charged direction becomes a Salik event with the fee
 * of the tariff in force at the interpolated crossing time. Linked groups (mamzar, safa): a crossing of
 * the other gate of the same group, in the same named direction, within the link window (60 min, inclusive)
 * after a paid crossing (fee above 0) is recorded with fee 0 and a reference to the crossing that paid.
 *
 * Decisions: segments longer than `maxSegmentM` or `maxSegmentS` are not tested (the path between the two
 * fixes is unknown); ignored and late positions (not newer than the last one) are skipped; crossings in an
 * uncharged direction produce no event.
 */

export interface SalikCrossing {
  /** Deterministic id: vehicle, gate and crossing time. */
  readonly id: string;
  readonly vehicleId: string;
  readonly deviceId: string;
  readonly gateCode: string;
  readonly gateNameEn: string;
  readonly gateNameAr: string;
  readonly time: number;
  readonly direction: GateDirection;
  readonly directionName: string;
  /** Bearing of travel between the two fixes around the crossing, degrees from north. */
  readonly bearing: number;
  readonly lat: number;
  readonly lon: number;
  readonly fee: number;
  readonly currency: string;
  readonly tariff: Omit<SalikFee, 'fee' | 'currency'>;
  /** For a free second crossing of a linked group: the id of the crossing that was charged. */
  readonly linkedTo?: string;
}

export interface SalikDetectorOptions {
  readonly maxSegmentM: number;
  readonly maxSegmentS: number;
  readonly linkWindowMinutes: number;
}

const defaults: SalikDetectorOptions = { maxSegmentM: 3000, maxSegmentS: 300, linkWindowMinutes: 60 };

export interface VehicleSalikState {
  readonly last?: { time: number; lat: number; lon: number };
  /** Charged crossings of linked gates still inside the link window. */
  readonly anchors: readonly SalikCrossing[];
}

interface PreparedGate {
  readonly line: GateLine;
  readonly ax: number;
  readonly ay: number;
  readonly bx: number;
  readonly by: number;
  /** unit vector of the forward road direction in the local plane */
  readonly fx: number;
  readonly fy: number;
  readonly reachM: number;
}

export class SalikDetector {
  private gates: PreparedGate[] = [];
  private readonly opts: SalikDetectorOptions;
  private readonly states = new Map<string, VehicleSalikState>();

  constructor(
    gates: readonly SalikGate[],
    private readonly tariff: SalikTariffTable,
    options: Partial<SalikDetectorOptions> = {},
  ) {
    this.opts = { ...defaults, ...options };
    this.setGates(gates);
  }

  /** Replaces the gate set (admin edits). */
  setGates(gates: readonly SalikGate[]): void {
    const codes = new Set<string>();
    this.gates = gates.map((gate) => {
      if (codes.has(gate.code)) throw new RangeError(`Duplicate Salik gate code: ${gate.code}`);
      codes.add(gate.code);
      if (!(gate.halfLengthM > 0))
        throw new RangeError(`Salik gate ${gate.code}: half length must be positive`);
      const line = gateLine(gate);
      const [ax, ay] = toLocalXY(gate.lat, gate.lon, line.a.lat, line.a.lon);
      const [bx, by] = toLocalXY(gate.lat, gate.lon, line.b.lat, line.b.lon);
      const rad = (gate.roadBearingDeg * Math.PI) / 180;
      return {
        line,
        ax,
        ay,
        bx,
        by,
        fx: Math.sin(rad),
        fy: Math.cos(rad),
        reachM: gate.halfLengthM + this.opts.maxSegmentM,
      };
    });
  }

  /** Processes one position; returns the Salik crossings (charged directions only) it completes. */
  update(vehicleId: string, r: PositionRecord): SalikCrossing[] {
    if (r.ignored) return [];
    const state = this.states.get(vehicleId) ?? { anchors: [] };
    const last = state.last;
    if (last && r.time <= last.time) return [];
    const out: SalikCrossing[] = [];
    let anchors = state.anchors.filter(
      (a) => r.time - a.time <= (this.opts.linkWindowMinutes * 60 + this.opts.maxSegmentS) * 1000,
    );
    if (
      last &&
      r.time - last.time <= this.opts.maxSegmentS * 1000 &&
      haversineM(last.lat, last.lon, r.lat, r.lon) <= this.opts.maxSegmentM
    ) {
      const hits: { g: PreparedGate; t: number; direction: GateDirection }[] = [];
      for (const g of this.gates) {
        const gate = g.line.gate;
        if (haversineM(gate.lat, gate.lon, last.lat, last.lon) > g.reachM) continue;
        const [x1, y1] = toLocalXY(gate.lat, gate.lon, last.lat, last.lon);
        const [x2, y2] = toLocalXY(gate.lat, gate.lon, r.lat, r.lon);
        const t = segmentIntersection(x1, y1, x2, y2, g.ax, g.ay, g.bx, g.by);
        if (t === null) continue;
        const direction: GateDirection = (x2 - x1) * g.fx + (y2 - y1) * g.fy >= 0 ? 'forward' : 'reverse';
        if (gate.charged.includes(direction)) hits.push({ g, t, direction });
      }
      hits.sort((a, b) => a.t - b.t);
      for (const { g, t, direction } of hits) {
        const gate = g.line.gate;
        const time = Math.round(last.time + t * (r.time - last.time));
        const directionName = gate.directionNames[direction];
        const priced = this.tariff.feeAt(time);
        const anchor = gate.linkedGroup
          ? anchors.find(
              (a) =>
                a.gateCode !== gate.code &&
                this.groupOf(a.gateCode) === gate.linkedGroup &&
                a.directionName === directionName &&
                time - a.time <= this.opts.linkWindowMinutes * 60_000,
            )
          : undefined;
        const { fee, currency, ...tariff } = priced;
        const crossing: SalikCrossing = {
          id: `${vehicleId}:${gate.code}:${time}`,
          vehicleId,
          deviceId: r.deviceId,
          gateCode: gate.code,
          gateNameEn: gate.nameEn,
          gateNameAr: gate.nameAr,
          time,
          direction,
          directionName,
          bearing: Math.round(bearingDeg(last.lat, last.lon, r.lat, r.lon)),
          lat: last.lat + t * (r.lat - last.lat),
          lon: last.lon + t * (r.lon - last.lon),
          fee: anchor ? 0 : fee,
          currency,
          tariff,
          ...(anchor ? { linkedTo: anchor.id } : {}),
        };
        out.push(crossing);
        // Only a crossing that was actually paid anchors the group (a free 01:00-06:00 pass does not).
        if (gate.linkedGroup && !anchor && crossing.fee > 0) anchors = [...anchors, crossing];
      }
    }
    this.states.set(vehicleId, { last: { time: r.time, lat: r.lat, lon: r.lon }, anchors });
    return out;
  }

  private groupOf(code: string): string | undefined {
    return this.gates.find((g) => g.line.gate.code === code)?.line.gate.linkedGroup;
  }

  /** One vehicle's state, for persisting. */
  stateOf(vehicleId: string): VehicleSalikState | undefined {
    return this.states.get(vehicleId);
  }

  /** Puts a vehicle's persisted state back (undefined: the vehicle starts afresh). */
  setState(vehicleId: string, state: VehicleSalikState | undefined): void {
    if (state) this.states.set(vehicleId, state);
    else this.states.delete(vehicleId);
  }

  snapshot(): Record<string, VehicleSalikState> {
    return Object.fromEntries(this.states);
  }

  restore(snapshot: Readonly<Record<string, VehicleSalikState>>): void {
    this.states.clear();
    for (const [k, v] of Object.entries(snapshot)) this.states.set(k, v);
  }
}
