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

const WIDTH = 640;
const HEIGHT = 240;
const MARGIN = { top: 12, right: 12, bottom: 40, left: 64 };

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

export function Chart({ label, categories, series, format, kind = "bar" }: ChartProps) {
  const innerW = WIDTH - MARGIN.left - MARGIN.right;
  const innerH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const values = series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const max = Math.max(0, ...values);
  const ticks = niceTicks(max);
  const top = ticks[ticks.length - 1] || 1;
  const y = (v: number) => MARGIN.top + innerH - (Math.max(0, v) / top) * innerH;
  const band = innerW / Math.max(1, categories.length);
  const x = (i: number) => MARGIN.left + i * band;
  const labelEvery = Math.ceil(categories.length / 8);
  const barW = (band * 0.8) / Math.max(1, series.length);

  return (
    <figure className="grid gap-2">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={label}
        className="h-auto w-full max-w-full"
      >
        {ticks.map((t) => (
          <g key={t}>
            <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(t)} y2={y(t)} stroke="#d4d4d8" />
            <text
              x={MARGIN.left - 6}
              y={y(t)}
              textAnchor="end"
              dominantBaseline="middle"
              fontSize="12"
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
              y={HEIGHT - MARGIN.bottom + 16}
              textAnchor="middle"
              fontSize="12"
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
