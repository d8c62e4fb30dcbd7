/**
 * A SegmentBuilder plus its spill policy: one per build worker (or one in-process). Spills a segment
 * file `<segDir>/<name>-<n>.seg` whenever `threshold` postings are held.
 */
import { join } from 'node:path';
import type { Analyzer } from '../analyzer.js';
import { SegmentBuilder } from './segment-builder.js';
import type { SegmentSample } from './segment-file.js';

/** A spilled segment file, its size, and where its sampled term records start (for a merge split by term range). */
export interface SegmentInfo {
  path: string;
  /** The file's size in bytes, as written. */
  bytes: number;
  samples: SegmentSample[];
}

export interface SpillerInit {
  segDir: string;
  name: string;
  threshold: number;
}

export class SegmentSpiller {
  private builder: SegmentBuilder;
  private segments: SegmentInfo[] = [];

  constructor(
    analyzer: Analyzer,
    private readonly init: SpillerInit,
  ) {
    this.builder = new SegmentBuilder(analyzer);
  }

  addBatch(base: number, texts: string[]): Uint32Array {
    const lengths = new Uint32Array(texts.length);
    for (let i = 0; i < texts.length; i++) lengths[i] = this.builder.addDoc(base + i, texts[i]);
    if (this.builder.postings >= this.init.threshold || this.builder.dictionaryFull) this.spill();
    return lengths;
  }

  private spill(): void {
    const path = join(this.init.segDir, `${this.init.name}-${String(this.segments.length).padStart(4, '0')}.seg`);
    const { samples, bytes } = this.builder.spill(path);
    this.segments.push({ path, bytes, samples });
  }

  finish(): SegmentInfo[] {
    if (this.builder.postings > 0) this.spill();
    return this.segments;
  }
}
