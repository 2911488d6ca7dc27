// The console's progressive enhancement: every page works without it (forms post, links load).
// With it: "select all" in the queue and a copy button for a new key's secret (live parts of a
// page, such as a write-back's state, are live.js's).
;(() => {
  const queue = document.querySelector("form.queue")
  const boxes = queue ? [...queue.querySelectorAll('input[type="checkbox"][name="id"]')] : []
  const head = queue?.querySelector("thead th")
  if (head && boxes.length > 0) {
    const all = document.createElement("input")
    all.type = "checkbox"
    all.setAttribute("aria-label", "Select all")
    all.addEventListener("change", () => {
      for (const box of boxes) box.checked = all.checked
    })
    head.replaceChildren(all)
  }

  for (const button of document.querySelectorAll("button.copy[data-copy]")) {
    const field = document.getElementById(button.dataset.copy)
    if (!field || !navigator.clipboard) continue
    button.hidden = false
    button.addEventListener("click", () => {
      navigator.clipboard.writeText(field.value).then(() => {
        button.textContent = "Copied"
      })
    })
  }
})()
