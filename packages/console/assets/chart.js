// The demand chart of a recommendation's page, drawn by uPlot from the figure's data attributes:
// expected units against price relative to today's (100 at the current price), the elasticity's
// estimate as a line and its 90 % interval as a band, the current and recommended prices marked.
;(() => {
  const box = document.getElementById("demand-chart")
  if (!box || typeof uPlot !== "function") return
  const read = (name) => Number(box.dataset[name])
  const current = read("current")
  const recommended = read("recommended")
  const [estimate, low, high] = [read("elasticity"), read("low"), read("high")]
  if (![current, recommended, estimate, low, high].every(Number.isFinite) || current <= 0) return
  const from = Math.min(current, recommended) * 0.8
  const to = Math.max(current, recommended) * 1.2
  const steps = 60
  const prices = [
    ...new Set([
      ...Array.from({ length: steps + 1 }, (_, i) => Math.round(from + ((to - from) * i) / steps)),
      current,
      recommended
    ])
  ].sort((a, b) => a - b)
  const units = (price, elasticity) => 100 * (price / current) ** elasticity
  const marked = prices.map((price) => (price === current || price === recommended ? units(price, estimate) : null))
  const major = (minor) => (minor / 100).toFixed(2)
  const width = Math.min(box.parentElement?.clientWidth ?? 640, 720)
  new uPlot(
    {
      width,
      height: 280,
      title: "Expected units sold (current price = 100)",
      scales: { x: { time: false } },
      axes: [
        { label: `Price (${box.dataset.currency ?? ""})`, values: (_, ticks) => ticks.map(major) },
        { label: "Units (relative)" }
      ],
      series: [
        { label: "Price", value: (_, v) => (v == null ? "" : major(v)) },
        { label: "Estimate", stroke: "#0550ae", width: 2 },
        { label: "Interval, low end", stroke: "#8c959f", dash: [4, 4] },
        { label: "Interval, high end", stroke: "#8c959f", dash: [4, 4] },
        {
          label: "Current / recommended",
          stroke: "#a40e26",
          width: 0,
          points: { show: true, size: 10, fill: "#a40e26" }
        }
      ],
      // The interval's two ends cross at today's price: one band each way, so both sides are filled.
      bands: [
        { series: [2, 3], fill: "rgba(5, 80, 174, 0.12)" },
        { series: [3, 2], fill: "rgba(5, 80, 174, 0.12)" }
      ]
    },
    [
      prices,
      prices.map((p) => units(p, estimate)),
      prices.map((p) => units(p, low)),
      prices.map((p) => units(p, high)),
      marked
    ],
    box
  )
})()
