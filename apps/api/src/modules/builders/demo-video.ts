/**
 * The test ad server's demo video (`/v1/public/serve/media/demo.mp4`; decision 040): a real,
 * 10-second H.264 (Constrained Baseline) MP4 written byte by byte, so no video file needs to be
 * downloaded or stored. H.264 lets a macroblock carry its pixels uncompressed (I_PCM), which needs
 * no entropy coder: the first frame is all I_PCM macroblocks (a coloured card with "PLAYON DEMO"),
 * and each later frame is a P frame that skips every macroblock but one of the progress bar along
 * the bottom, sent again as I_PCM in the accent colour. 256x144, 16 frames of 625 ms, about 60 KB.
 *
 * References: ITU-T H.264 (SPS 7.3.2.1, PPS 7.3.2.2, slice header 7.3.3, slice data 7.3.4, I_PCM
 * 7.3.5), ISO/IEC 14496-12 (MP4 boxes) and 14496-15 (avcC).
 */

const WIDTH = 256;
const HEIGHT = 144;
const MB_COLS = WIDTH / 16;
const MB_ROWS = HEIGHT / 16;
const FRAME_MS = 625;
const FRAMES = MB_COLS; // one more bar block per frame: the bar is full at the end
export const DEMO_VIDEO_SECONDS = (FRAME_MS * FRAMES) / 1000;
export const DEMO_VIDEO_SIZE = { width: WIDTH, height: HEIGHT };

// ---------------------------------------------------------------------------------------------
// Bits

class BitWriter {
  private bytes: number[] = [];
  private current = 0;
  private used = 0;

  bit(b: number): void {
    this.current = (this.current << 1) | (b & 1);
    this.used++;
    if (this.used === 8) {
      this.bytes.push(this.current);
      this.current = 0;
      this.used = 0;
    }
  }
  u(n: number, value: number): void {
    for (let i = n - 1; i >= 0; i--) this.bit((value >>> i) & 1);
  }
  /** Unsigned Exp-Golomb. */
  ue(value: number): void {
    const v = value + 1;
    const len = 32 - Math.clz32(v);
    this.u(len - 1, 0);
    this.u(len, v);
  }
  /** Signed Exp-Golomb. */
  se(value: number): void {
    this.ue(value <= 0 ? -2 * value : 2 * value - 1);
  }
  alignZero(): void {
    while (this.used !== 0) this.bit(0);
  }
  byte(value: number): void {
    this.u(8, value);
  }
  /** rbsp_trailing_bits: a one, then zeros to the byte boundary. */
  trailing(): Uint8Array {
    this.bit(1);
    this.alignZero();
    return Uint8Array.from(this.bytes);
  }
}

/** A NAL unit: header byte, then the payload with emulation prevention (00 00 0x → 00 00 03 0x). */
function nal(refIdc: number, type: number, rbsp: Uint8Array): Uint8Array {
  const out: number[] = [(refIdc << 5) | type];
  let zeros = 0;
  for (const b of rbsp) {
    if (zeros >= 2 && b <= 3) {
      out.push(3);
      zeros = 0;
    }
    out.push(b);
    zeros = b === 0 ? zeros + 1 : 0;
  }
  return Uint8Array.from(out);
}

const PROFILE_BASELINE = 66;
const CONSTRAINTS = 0xc0; // constraint_set0 and 1: Constrained Baseline
const LEVEL = 30;
const LOG2_MAX_FRAME_NUM = 4;

function sps(): Uint8Array {
  const w = new BitWriter();
  w.u(8, PROFILE_BASELINE);
  w.u(8, CONSTRAINTS);
  w.u(8, LEVEL);
  w.ue(0); // seq_parameter_set_id
  w.ue(LOG2_MAX_FRAME_NUM - 4);
  w.ue(2); // pic_order_cnt_type 2: output order is decoding order
  w.ue(1); // max_num_ref_frames
  w.u(1, 0); // gaps_in_frame_num_value_allowed_flag
  w.ue(MB_COLS - 1);
  w.ue(MB_ROWS - 1);
  w.u(1, 1); // frame_mbs_only_flag
  w.u(1, 1); // direct_8x8_inference_flag
  w.u(1, 0); // frame_cropping_flag
  w.u(1, 0); // vui_parameters_present_flag
  return nal(3, 7, w.trailing());
}

function pps(): Uint8Array {
  const w = new BitWriter();
  w.ue(0); // pic_parameter_set_id
  w.ue(0); // seq_parameter_set_id
  w.u(1, 0); // entropy_coding_mode_flag: CAVLC
  w.u(1, 0); // bottom_field_pic_order_in_frame_present_flag
  w.ue(0); // num_slice_groups_minus1
  w.ue(0); // num_ref_idx_l0_default_active_minus1
  w.ue(0); // num_ref_idx_l1_default_active_minus1
  w.u(1, 0); // weighted_pred_flag
  w.u(2, 0); // weighted_bipred_idc
  w.se(0); // pic_init_qp_minus26
  w.se(0); // pic_init_qs_minus26
  w.se(0); // chroma_qp_index_offset
  w.u(1, 1); // deblocking_filter_control_present_flag (to switch it off per slice)
  w.u(1, 0); // constrained_intra_pred_flag
  w.u(1, 0); // redundant_pic_cnt_present_flag
  return nal(3, 8, w.trailing());
}

// ---------------------------------------------------------------------------------------------
// Pixels

type Rgb = readonly [number, number, number];
const BACKGROUND: Rgb = [228, 0, 124];
const TEXT: Rgb = [255, 255, 255];
const BAR_TRACK: Rgb = [60, 10, 40];
const BAR_FILL: Rgb = [255, 214, 0];

/** BT.601 limited range, clamped to 1..254 (I_PCM samples of 0 were reserved in early H.264). */
function ycbcr([r, g, b]: Rgb): [number, number, number] {
  const clamp = (v: number) => Math.min(254, Math.max(1, Math.round(v)));
  return [
    clamp(16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255),
    clamp(128 + (-37.797 * r - 74.203 * g + 112 * b) / 255),
    clamp(128 + (112 * r - 93.786 * g - 18.214 * b) / 255),
  ];
}

/** A 5x7 font for the card's words. */
const GLYPHS: Record<string, string[]> = {
  P: ['11110', '10001', '10001', '11110', '10000', '10000', '10000'],
  L: ['10000', '10000', '10000', '10000', '10000', '10000', '11111'],
  A: ['01110', '10001', '10001', '11111', '10001', '10001', '10001'],
  Y: ['10001', '10001', '01010', '00100', '00100', '00100', '00100'],
  O: ['01110', '10001', '10001', '10001', '10001', '10001', '01110'],
  N: ['10001', '11001', '10101', '10011', '10001', '10001', '10001'],
  D: ['11110', '10001', '10001', '10001', '10001', '10001', '11110'],
  E: ['11111', '10000', '10000', '11110', '10000', '10000', '11111'],
  M: ['10001', '11011', '10101', '10101', '10001', '10001', '10001'],
  ' ': ['00000', '00000', '00000', '00000', '00000', '00000', '00000'],
};

/** The first frame in RGB: the card, its words, and the bar's track. */
function cardPixels(): Rgb[] {
  const pixels: Rgb[] = new Array<Rgb>(WIDTH * HEIGHT).fill(BACKGROUND);
  const words = 'PLAYON DEMO';
  const scale = 3;
  const textWidth = words.length * 6 * scale - scale;
  const left = Math.floor((WIDTH - textWidth) / 2);
  const top = Math.floor((HEIGHT - 16 - 7 * scale) / 2);
  [...words].forEach((ch, i) => {
    const rows = GLYPHS[ch] ?? GLYPHS[' ']!;
    rows.forEach((row, y) =>
      [...row].forEach((on, x) => {
        if (on !== '1') return;
        for (let dy = 0; dy < scale; dy++)
          for (let dx = 0; dx < scale; dx++) pixels[(top + y * scale + dy) * WIDTH + left + (i * 6 + x) * scale + dx] = TEXT;
      }),
    );
  });
  for (let y = HEIGHT - 16; y < HEIGHT; y++) for (let x = 0; x < WIDTH; x++) pixels[y * WIDTH + x] = BAR_TRACK;
  return pixels;
}

/** The bar block `col` of the bottom macroblock row, filled: a band in the middle of the row. */
function paintBarBlock(pixels: Rgb[], col: number): void {
  for (let y = HEIGHT - 12; y < HEIGHT - 4; y++) for (let x = col * 16; x < col * 16 + 16; x++) pixels[y * WIDTH + x] = BAR_FILL;
}

/** One macroblock as I_PCM samples: 256 luma, then 64 Cb and 64 Cr (4:2:0, each the 2x2 average). */
function pcmSamples(pixels: readonly Rgb[], mbx: number, mby: number, w: BitWriter): void {
  const yuv = (x: number, y: number) => ycbcr(pixels[(mby * 16 + y) * WIDTH + mbx * 16 + x]!);
  for (let y = 0; y < 16; y++) for (let x = 0; x < 16; x++) w.byte(yuv(x, y)[0]);
  for (const c of [1, 2])
    for (let y = 0; y < 8; y++)
      for (let x = 0; x < 8; x++) {
        const sum = yuv(2 * x, 2 * y)[c]! + yuv(2 * x + 1, 2 * y)[c]! + yuv(2 * x, 2 * y + 1)[c]! + yuv(2 * x + 1, 2 * y + 1)[c]!;
        w.byte(Math.round(sum / 4));
      }
}

const I_PCM_IN_I_SLICE = 25;
const I_PCM_IN_P_SLICE = 5 + 25;

function idrSlice(pixels: readonly Rgb[]): Uint8Array {
  const w = new BitWriter();
  w.ue(0); // first_mb_in_slice
  w.ue(7); // slice_type: I (every slice of the picture)
  w.ue(0); // pic_parameter_set_id
  w.u(LOG2_MAX_FRAME_NUM, 0); // frame_num
  w.ue(0); // idr_pic_id
  w.u(1, 0); // no_output_of_prior_pics_flag
  w.u(1, 0); // long_term_reference_flag
  w.se(0); // slice_qp_delta
  w.ue(1); // disable_deblocking_filter_idc: off
  for (let mby = 0; mby < MB_ROWS; mby++)
    for (let mbx = 0; mbx < MB_COLS; mbx++) {
      w.ue(I_PCM_IN_I_SLICE);
      w.alignZero(); // pcm_alignment_zero_bit
      pcmSamples(pixels, mbx, mby, w);
    }
  return nal(3, 5, w.trailing());
}

/** A P frame that repeats the previous one but for macroblock (mbx, mby), sent as I_PCM. */
function pSlice(frameNum: number, pixels: readonly Rgb[], mbx: number, mby: number): Uint8Array {
  const w = new BitWriter();
  w.ue(0); // first_mb_in_slice
  w.ue(5); // slice_type: P (every slice of the picture)
  w.ue(0); // pic_parameter_set_id
  w.u(LOG2_MAX_FRAME_NUM, frameNum % (1 << LOG2_MAX_FRAME_NUM));
  w.u(1, 0); // num_ref_idx_active_override_flag
  w.u(1, 0); // ref_pic_list_modification_flag_l0
  w.u(1, 0); // adaptive_ref_pic_marking_mode_flag
  w.se(0); // slice_qp_delta
  w.ue(1); // disable_deblocking_filter_idc
  const index = mby * MB_COLS + mbx;
  const after = MB_COLS * MB_ROWS - index - 1;
  w.ue(index); // mb_skip_run before it
  w.ue(I_PCM_IN_P_SLICE);
  w.alignZero();
  pcmSamples(pixels, mbx, mby, w);
  if (after > 0) w.ue(after); // the rest skipped
  return nal(2, 1, w.trailing());
}

// ---------------------------------------------------------------------------------------------
// MP4 boxes

function u32(v: number): number[] {
  return [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];
}
const u16 = (v: number) => [(v >>> 8) & 255, v & 255];
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

function box(type: string, ...parts: (number[] | Uint8Array)[]): Uint8Array {
  const size = 8 + parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(size);
  out.set([...u32(size), ...ascii(type)], 0);
  let at = 8;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
const fullBox = (type: string, version: number, flags: number, ...parts: (number[] | Uint8Array)[]) =>
  box(type, [version, (flags >>> 16) & 255, (flags >>> 8) & 255, flags & 255], ...parts);

const MATRIX = [...u32(0x00010000), ...u32(0), ...u32(0), ...u32(0), ...u32(0x00010000), ...u32(0), ...u32(0), ...u32(0), ...u32(0x40000000)];

function moov(samples: readonly Uint8Array[], spsNal: Uint8Array, ppsNal: Uint8Array, mdatDataOffset: number): Uint8Array {
  const durationMs = FRAME_MS * samples.length;
  const avcC = box('avcC', [1, PROFILE_BASELINE, CONSTRAINTS, LEVEL, 0xff, 0xe1, ...u16(spsNal.length)], spsNal, [1, ...u16(ppsNal.length)], ppsNal);
  const avc1 = box(
    'avc1',
    [0, 0, 0, 0, 0, 0, ...u16(1)], // reserved, data_reference_index
    new Array<number>(16).fill(0), // pre_defined, reserved
    [...u16(WIDTH), ...u16(HEIGHT), ...u32(0x00480000), ...u32(0x00480000), ...u32(0), ...u16(1)],
    [8, ...ascii('PlayOn demo'), ...new Array<number>(31 - 11).fill(0)], // compressorname (Pascal string, 32 bytes)
    [...u16(0x0018), 0xff, 0xff], // depth, pre_defined -1
    avcC,
  );
  const stbl = box(
    'stbl',
    fullBox('stsd', 0, 0, u32(1), avc1),
    fullBox('stts', 0, 0, u32(1), u32(samples.length), u32(FRAME_MS)),
    fullBox('stss', 0, 0, u32(1), u32(1)),
    fullBox('stsc', 0, 0, u32(1), u32(1), u32(samples.length), u32(1)),
    fullBox('stsz', 0, 0, u32(0), u32(samples.length), samples.flatMap((s) => u32(s.length))),
    fullBox('stco', 0, 0, u32(1), u32(mdatDataOffset)),
  );
  const minf = box(
    'minf',
    fullBox('vmhd', 0, 1, u16(0), u16(0), u16(0), u16(0)),
    box('dinf', fullBox('dref', 0, 0, u32(1), fullBox('url ', 0, 1))),
    stbl,
  );
  const mdia = box(
    'mdia',
    fullBox('mdhd', 0, 0, u32(0), u32(0), u32(1000), u32(durationMs), u16(0x55c4), u16(0)), // language "und"
    fullBox('hdlr', 0, 0, u32(0), ascii('vide'), u32(0), u32(0), u32(0), [...ascii('VideoHandler'), 0]),
    minf,
  );
  const tkhd = fullBox('tkhd', 0, 3, u32(0), u32(0), u32(1), u32(0), u32(durationMs), u32(0), u32(0), u16(0), u16(0), u16(0), u16(0), MATRIX, u32(WIDTH << 16), u32(HEIGHT << 16));
  const mvhd = fullBox('mvhd', 0, 0, u32(0), u32(0), u32(1000), u32(durationMs), u32(0x00010000), u16(0x0100), u16(0), u32(0), u32(0), MATRIX, new Array<number>(24).fill(0), u32(2));
  return box('moov', mvhd, box('trak', tkhd, mdia));
}

/** The video's bytes (each sample is one length-prefixed NAL unit; SPS and PPS are in avcC). */
function buildDemoVideo(): Uint8Array {
  const pixels = cardPixels();
  paintBarBlock(pixels, 0);
  const samples: Uint8Array[] = [idrSlice(pixels)];
  for (let frame = 1; frame < FRAMES; frame++) {
    paintBarBlock(pixels, frame);
    samples.push(pSlice(frame, pixels, frame, MB_ROWS - 1));
  }
  const lengthPrefixed = samples.map((s) => {
    const out = new Uint8Array(4 + s.length);
    out.set(u32(s.length), 0);
    out.set(s, 4);
    return out;
  });
  const ftyp = box('ftyp', ascii('isom'), u32(512), ascii('isomiso2avc1mp41'));
  const spsNal = sps();
  const ppsNal = pps();
  // moov's size does not depend on the offset's value: measure it once, then write it.
  const moovSize = moov(lengthPrefixed, spsNal, ppsNal, 0).length;
  const mdatDataOffset = ftyp.length + moovSize + 8;
  const head = moov(lengthPrefixed, spsNal, ppsNal, mdatDataOffset);
  const mdat = box('mdat', ...lengthPrefixed);
  const out = new Uint8Array(ftyp.length + head.length + mdat.length);
  out.set(ftyp, 0);
  out.set(head, ftyp.length);
  out.set(mdat, ftyp.length + head.length);
  return out;
}

let cached: Buffer | null = null;

/** The demo video, built once per process. */
export function demoVideo(): Buffer {
  cached ??= Buffer.from(buildDemoVideo());
  return cached;
}
