/*
 * Charts drawn on the server as SVG (issue 30): no chart script reaches the browser. Scales and
 * shapes are a few lines of arithmetic here rather than a library: bars and a line over a
 * linear scale with "nice" ticks. The figures are in the table beside each chart, so the SVG is
 * hidden from screen readers (role img with a label summarising it) and the table is the
 * accessible form.
 *
 * Colors: each series' color has at least 4.5:1 contrast on white (WCAG 1.4.11 asks 3:1 for
 * graphics), and the text is the page's foreground.
 */

export type Series = { name: string; color: string; values: (number | null)[] };

/** Series colors, each >= 4.5:1 on white: blue-700, orange-800, green-800, violet-700, red-800. */
export const CHART_COLORS = ["#1d4ed8", "#9a3412", "#166534", "#6d28d9", "#991b1b"] as const;

/**
 * Two drawings of each chart, one shown below Tailwind's `sm` breakpoint (640 px) and one above,
 * each sized so its text renders at 12 CSS px or more (issue 40, item 12): an SVG's text scales
 * with the drawing, so a 640-unit drawing squeezed onto a phone's 330 px showed 6 px labels.
 * The phone's is 320 units wide with 13-unit text (13.5 px at 390 px wide, 12.3 px at 360);
 * the wide one is 640 units with 14-unit text, never drawn narrower than 574 px (12.6 px).
 */
const LAYOUTS = {
  narrow: {
    width: 320,
    height: 220,
    margin: { top: 12, right: 8, bottom: 36, left: 58 },
    font: 13,
    // "Sep 2026" at 13 units is about 60 wide: at most three under a 254-unit axis.
    labels: 3,
  },
  wide: {
    width: 640,
    height: 260,
    margin: { top: 12, right: 12, bottom: 40, left: 72 },
    font: 14,
    labels: 8,
  },
} as const;
type Layout = (typeof LAYOUTS)[keyof typeof LAYOUTS];

/** Round ticks from 0 to at least `max` (1, 2 or 5 times a power of ten apart). */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((f) => f * power).find((s) => s >= raw) ?? raw;
  const ticks: number[] = [];
  for (let t = 0; t < max + step; t += step) ticks.push(t);
  return ticks;
}

type ChartProps = {
  label: string;
  categories: string[];
  series: Series[];
  format: (value: number) => string;
  kind?: "bar" | "line";
};

export function Chart(props: ChartProps) {
  const { series } = props;
  return (
    <figure className="grid max-w-[640px] gap-2">
      <Drawing {...props} layout={LAYOUTS.narrow} className="h-auto w-full max-w-full sm:hidden" />
      <Drawing
        {...props}
        layout={LAYOUTS.wide}
        className="hidden h-auto w-full max-w-full sm:block"
      />
      {series.length > 1 ? (
        <figcaption className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {series.map((s) => (
            <span key={s.name} className="inline-flex items-center gap-1.5">
              <svg width="12" height="12" aria-hidden="true">
                <rect width="12" height="12" fill={s.color} />
              </svg>
              {s.name}
            </span>
          ))}
        </figcaption>
      ) : null}
    </figure>
  );
}

function Drawing(props: ChartProps & { layout: Layout; className: string }) {
  return props.categories.length === 1 ? <OneCategory {...props} /> : <Axes {...props} />;
}

/**
 * A single category (a one-month period, one week): a dot on a line, or bars with no scale
 * to read them against, say nothing. Each series is drawn as a horizontal bar under its name,
 * with its value written at the bar's end.
 */
function OneCategory({
  label,
  categories,
  series,
  format,
  layout,
  className,
}: ChartProps & { layout: Layout; className: string }) {
  const { width, font } = layout;
  const left = 8;
  const valueRoom = font * 6;
  const row = font * 3.2;
  const height = font * 2 + series.length * row;
  const values = series.map((s) => s.values[0] ?? null);
  const max = Math.max(0, ...values.filter((v): v is number => v !== null));
  const length = (v: number) => (max > 0 ? (Math.max(0, v) / max) * (width - left - valueRoom) : 0);
  return (
    <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} className={className}>
      <text x={left} y={font * 1.2} fontSize={font} fontWeight="600" fill="#27272a">
        {categories[0]}
      </text>
      {series.map((s, i) => {
        const top = font * 2 + i * row;
        const v = values[i];
        const barY = top + font * 1.4;
        const barH = font * 1.2;
        return (
          <g key={s.name}>
            <text x={left} y={top + font} fontSize={font} fill="#27272a">
              {s.name}
            </text>
            <rect x={left} y={barY} width={v ? length(v) : 0} height={barH} fill={s.color} />
            <rect x={left} y={barY} width={1} height={barH} fill="#52525b" />
            <text
              x={left + (v ? length(v) : 0) + 6}
              y={barY + barH / 2}
              dominantBaseline="middle"
              fontSize={font}
              fontWeight="600"
              fill="#27272a"
            >
              {v === null ? "n/a" : format(v)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

function Axes({
  label,
  categories,
  series,
  format,
  kind = "bar",
  layout,
  className,
}: ChartProps & { layout: Layout; className: string }) {
  const { width: WIDTH, height: HEIGHT, margin: MARGIN, font } = layout;
  const innerW = WIDTH - MARGIN.left - MARGIN.right;
  const innerH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const values = series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const max = Math.max(0, ...values);
  const ticks = niceTicks(max);
  const top = ticks[ticks.length - 1] || 1;
  const y = (v: number) => MARGIN.top + innerH - (Math.max(0, v) / top) * innerH;
  const band = innerW / Math.max(1, categories.length);
  const x = (i: number) => MARGIN.left + i * band;
  const labelEvery = Math.ceil(categories.length / layout.labels);
  const barW = (band * 0.8) / Math.max(1, series.length);

  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label} className={className}>
      {ticks.map((t) => (
        <g key={t}>
          <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(t)} y2={y(t)} stroke="#d4d4d8" />
          <text
            x={MARGIN.left - 6}
            y={y(t)}
            textAnchor="end"
            dominantBaseline="middle"
            fontSize={font}
            fill="#27272a"
          >
            {format(t)}
          </text>
        </g>
      ))}
      {categories.map((c, i) =>
        i % labelEvery === 0 ? (
          <text
            key={c}
            x={x(i) + band / 2}
            y={HEIGHT - MARGIN.bottom + font + 4}
            textAnchor="middle"
            fontSize={font}
            fill="#27272a"
          >
            {c}
          </text>
        ) : null,
      )}
      {kind === "bar"
        ? series.map((s, si) =>
            s.values.map((v, i) =>
              v === null || v <= 0 ? null : (
                <rect
                  key={`${s.name}-${i}`}
                  x={x(i) + band * 0.1 + si * barW}
                  y={y(v)}
                  width={Math.max(1, barW - 1)}
                  height={MARGIN.top + innerH - y(v)}
                  fill={s.color}
                />
              ),
            ),
          )
        : series.map((s) => (
            <g key={s.name}>
              <polyline
                fill="none"
                stroke={s.color}
                strokeWidth="2.5"
                points={s.values
                  .map((v, i) => (v === null ? null : `${x(i) + band / 2},${y(v)}`))
                  .filter(Boolean)
                  .join(" ")}
              />
              {s.values.map((v, i) =>
                v === null ? null : (
                  <circle key={i} cx={x(i) + band / 2} cy={y(v)} r="3.5" fill={s.color} />
                ),
              )}
            </g>
          ))}
      <line
        x1={MARGIN.left}
        x2={WIDTH - MARGIN.right}
        y1={MARGIN.top + innerH}
        y2={MARGIN.top + innerH}
        stroke="#52525b"
      />
    </svg>
  );
}
