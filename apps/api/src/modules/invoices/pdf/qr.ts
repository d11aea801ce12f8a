/**
 * The VERI*FACTU QR code drawn as vector squares (ISO/IEC 18004, error correction M as the tax
 * agency asks): crisp at any zoom, no image to decode, the same bytes for the same URL.
 */
import QRCode from 'qrcode';

/** Dark modules as horizontal runs, in module units: one rectangle per run. */
export interface QrRuns {
  size: number;
  runs: { row: number; col: number; length: number }[];
}

export function qrRuns(text: string): QrRuns {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const { size, data } = modules;
  const runs: QrRuns['runs'] = [];
  for (let row = 0; row < size; row++) {
    let col = 0;
    while (col < size) {
      if (!data[row * size + col]) {
        col++;
        continue;
      }
      const start = col;
      while (col < size && data[row * size + col]) col++;
      runs.push({ row, col: start, length: col - start });
    }
  }
  return { size, runs };
}

/** 1 mm in PDF points. */
export const MM = 72 / 25.4;

/**
 * The symbol's side in mm. The tax agency asks for a QR of 30×30 to 40×40 mm; 32 mm keeps it in
 * that range whether the quiet zone (4 modules, about 3 mm a side here) is counted or not.
 */
export const QR_SYMBOL_MM = 32;

/**
 * Draws the symbol with its top-left corner at (x, y), `width` points wide, on a white quiet zone
 * of 4 modules (drawn outside the symbol's width).
 */
export function drawQr(pdf: PDFKit.PDFDocument, qr: QrRuns, x: number, y: number, width: number): void {
  const { size, runs } = qr;
  const module = width / size;
  const quiet = module * 4;
  pdf.save();
  pdf.rect(x - quiet, y - quiet, width + 2 * quiet, width + 2 * quiet).fill('#ffffff');
  // A hair of overlap between rows so viewers do not show seams between the rectangles.
  const overlap = module * 0.02;
  for (const run of runs) {
    const bottom = run.row === size - 1 ? 0 : overlap;
    pdf.rect(x + run.col * module, y + run.row * module, run.length * module, module + bottom);
  }
  pdf.fill('#000000');
  pdf.restore();
}
