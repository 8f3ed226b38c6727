/**
 * How the bus's logical subjects map onto NATS (see nats-bus.ts for the families and why): the prefix
 * that namespaces a cluster on the wire, the partition token of the locations family, the stream names,
 * and the consumer filter subjects of a pattern. Pure, no connection; a change to the wire layout is a
 * change here (and every node of a cluster must agree on it).
 */

/** A family of subjects kept in a JetStream stream. */
export interface Family {
  name: 'locations' | 'commands';
  stream: string;
  /** Logical token count of its subjects (the partition token comes after). */
  tokens: number;
  /** Index of the token that is the ordering key (partitioned families only). */
  keyToken: number | null;
}

/** FNV-1a 32-bit: a stable partition of a device uuid, the same in every process. */
export function partitionOf(key: string, partitions: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % partitions;
}

export const safeName = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_');

export function shortHash(s: string): string {
  return partitionOf(s, 0xffffff).toString(36);
}

export class NatsSubjects {
  /** '' or '<prefix>.' */
  readonly prefix: string;
  readonly partitions: number;
  readonly families: Family[];

  constructor(opts: { prefix?: string; streamPrefix?: string; partitions?: number }) {
    this.prefix = opts.prefix ? `${opts.prefix}.` : '';
    this.partitions = Math.max(1, Math.floor(opts.partitions ?? 32));
    const sp = opts.streamPrefix ?? (opts.prefix ? `${safeName(opts.prefix).toUpperCase()}_` : '');
    this.families = [
      { name: 'locations', stream: `${sp}LOCATIONS`, tokens: 3, keyToken: 2 },
      { name: 'commands', stream: `${sp}COMMANDS`, tokens: 2, keyToken: null },
    ];
  }

  familyOf(subjectOrPattern: string): Family | undefined {
    const first = subjectOrPattern.split('.', 1)[0];
    return this.families.find((f) => f.name === first);
  }

  /** The wire subject of a logical one (prefix, and the partition token for locations). */
  wireSubject(subject: string): string {
    const fam = this.familyOf(subject);
    if (!fam || fam.keyToken === null) return this.prefix + subject;
    const tokens = subject.split('.');
    if (tokens.length !== fam.tokens || tokens.some((t) => t === '' || t === '*' || t === '>')) {
      throw new Error(`bus: ${fam.name} subject must have ${fam.tokens} concrete tokens: ${subject}`);
    }
    return `${this.prefix}${subject}.${partitionOf(tokens[fam.keyToken]!, this.partitions)}`;
  }

  /** The logical subject of a wire one (prefix and partition token removed). */
  logicalSubject(wire: string): string {
    const s = this.prefix && wire.startsWith(this.prefix) ? wire.slice(this.prefix.length) : wire;
    const fam = this.familyOf(s);
    if (!fam || fam.keyToken === null) return s;
    return s.split('.').slice(0, fam.tokens).join('.');
  }

  /** Consumer filter subjects of a pattern: one per partition for partitioned families. */
  filtersFor(fam: Family, pattern: string): string[] {
    const tokens = pattern.split('.');
    if (tokens.at(-1) === '>') {
      tokens.pop();
      while (tokens.length < fam.tokens) tokens.push('*');
    }
    if (tokens.length !== fam.tokens) {
      throw new Error(`bus: pattern ${pattern} does not fit ${fam.name} subjects (${fam.tokens} tokens)`);
    }
    const base = this.prefix + tokens.join('.');
    if (fam.keyToken === null) return [base];
    return Array.from({ length: this.partitions }, (_, p) => `${base}.${p}`);
  }
}
