/** A size's proportions: a frame of `box` px with the size drawn to fit inside it (the list's shape column, the drawer). */
export function SizeShape({
  width,
  height,
  box = 48,
  label,
  testId,
}: {
  width: number;
  height: number;
  box?: number;
  label: string;
  testId?: string;
}) {
  const scale = Math.min(box / width, box / height);
  const w = Math.max(2, Math.round(width * scale));
  const h = Math.max(2, Math.round(height * scale));
  return (
    <span
      className="bo-cre-shape"
      style={{ width: box, height: box }}
      role="img"
      aria-label={label}
      data-testid={testId}
    >
      <span className="bo-cre-shape__box" style={{ width: w, height: h }} />
    </span>
  );
}
