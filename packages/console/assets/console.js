// The console's progressive enhancement: every page works without it (forms post, links load).
// With it: "select all" in the queue, a copy button for a new key's secret, and the write-back's
// state refreshed live on a recommendation's page while the store has not answered.
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

  // While the write-back is pending, re-read this page every 2 s (at most a minute) and swap in its state.
  const state = document.getElementById("write-back-state")
  const live = (status) => status === "pending" || status === "in_flight"
  if (state && live(state.dataset.status)) {
    let tries = 0
    const poll = () => {
      tries += 1
      fetch(location.pathname, { headers: { accept: "text/html" }, credentials: "same-origin" })
        .then((response) => (response.ok ? response.text() : Promise.reject(response.status)))
        .then((html) => {
          const next = new DOMParser().parseFromString(html, "text/html")
          const fresh = next.getElementById("write-back-state")
          const current = document.getElementById("write-back-state")
          if (fresh && current) current.replaceWith(fresh)
          const status = next.getElementById("recommendation-status")
          const shown = document.getElementById("recommendation-status")
          if (status && shown) shown.replaceWith(status)
          if (fresh && live(fresh.dataset.status) && tries < 30) setTimeout(poll, 2000)
        })
        .catch(() => undefined)
    }
    setTimeout(poll, 2000)
  }
})()
