// The console's charts, drawn by uPlot from their figure's data attributes (no inline script):
// - #profit-chart on a recommendation's page: expected monthly profit against price, the estimate as
//   a line and its 90 % interval as a band, the current and recommended prices marked, the floor and
//   ceiling as dashed vertical lines;
// - #history-chart on an item's page: each price the item sold at and the units sold at it.
;(() => {
  if (typeof uPlot !== "function") return
  const major = (minor) => (minor / 100).toFixed(2)
  const widthOf = (box) => Math.min(box.parentElement?.clientWidth ?? 640, 720)
  const read = (box, name) => {
    try {
      return JSON.parse(box.dataset[name] ?? "null")
    } catch {
      return null
    }
  }

  const profit = document.getElementById("profit-chart")
  const curve = profit && read(profit, "curve")
  if (curve && Array.isArray(curve.prices) && curve.prices.length > 1) {
    const marked = curve.prices.map((price, i) =>
      price === curve.current || price === curve.recommended ? curve.estimate[i] : null
    )
    // Floor and ceiling: dashed vertical lines across the plot, drawn after the series.
    const limits = [
      [curve.floor, "Floor"],
      [curve.ceiling, "Ceiling"]
    ].filter(([value]) => typeof value === "number")
    const drawLimits = (u) => {
      const ctx = u.ctx
      ctx.save()
      ctx.strokeStyle = "#6e7781"
      ctx.fillStyle = "#24292f"
      ctx.setLineDash([6, 4])
      ctx.lineWidth = 1.5 * devicePixelRatio
      ctx.font = `${12 * devicePixelRatio}px sans-serif`
      for (const [value, label] of limits) {
        const x = Math.round(u.valToPos(value, "x", true))
        ctx.beginPath()
        ctx.moveTo(x, u.bbox.top)
        ctx.lineTo(x, u.bbox.top + u.bbox.height)
        ctx.stroke()
        ctx.fillText(label, x + 4 * devicePixelRatio, u.bbox.top + 14 * devicePixelRatio)
      }
      ctx.restore()
    }
    new uPlot(
      {
        width: widthOf(profit),
        height: 300,
        title: "Expected monthly profit",
        scales: { x: { time: false } },
        axes: [
          { label: `Price (${profit.dataset.currency ?? ""})`, values: (_, ticks) => ticks.map(major) },
          {
            label: `Profit a month (${profit.dataset.currency ?? ""})`,
            values: (_, ticks) => ticks.map(major),
            size: 70
          }
        ],
        series: [
          { label: "Price", value: (_, v) => (v == null ? "" : major(v)) },
          { label: "Estimate", stroke: "#0550ae", width: 2, value: (_, v) => (v == null ? "" : major(v)) },
          { label: "Interval, low", stroke: "#8c959f", dash: [4, 4], value: (_, v) => (v == null ? "" : major(v)) },
          { label: "Interval, high", stroke: "#8c959f", dash: [4, 4], value: (_, v) => (v == null ? "" : major(v)) },
          {
            label: "Current / recommended",
            stroke: "#a40e26",
            width: 0,
            points: { show: true, size: 10, fill: "#a40e26" },
            value: (_, v) => (v == null ? "" : major(v))
          }
        ],
        bands: [{ series: [3, 2], fill: "rgba(5, 80, 174, 0.12)" }],
        hooks: { draw: [drawLimits] }
      },
      [curve.prices, curve.estimate, curve.low, curve.high, marked],
      profit
    )
  }

  const history = document.getElementById("history-chart")
  const series = history && read(history, "series")
  if (series && Array.isArray(series.prices) && series.prices.length > 1) {
    const index = series.prices.map((_, i) => i + 1)
    new uPlot(
      {
        width: widthOf(history),
        height: 260,
        title: "Price and units sold, oldest first",
        scales: { x: { time: false }, units: {} },
        axes: [
          {
            label: "Observation (the last is today's)",
            values: (_, ticks) => ticks.map((t) => (Number.isInteger(t) ? t : ""))
          },
          { label: `Price (${history.dataset.currency ?? ""})`, values: (_, ticks) => ticks.map(major), size: 60 },
          { side: 1, scale: "units", label: "Units, 30 days", grid: { show: false } }
        ],
        series: [
          { label: "Observation" },
          {
            label: "Price",
            stroke: "#0550ae",
            width: 2,
            points: { show: true, size: 6 },
            value: (_, v) => (v == null ? "" : major(v))
          },
          { label: "Units", scale: "units", stroke: "#bf8700", width: 2, points: { show: true, size: 6 } }
        ]
      },
      [index, series.prices, series.units],
      history
    )
  }
})()
