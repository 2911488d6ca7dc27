// Live parts of a page (a run's progress, a write-back waiting for the store): each element marked
// data-live="on" is re-read from this page's own URL and swapped for its fresh copy, until the fresh
// copy says data-live="off". Every re-read is a request of the session and counts against its rate
// budget, so the wait grows from 1 s to 10 s (about ten re-reads in the first minute, six a minute
// after) and stops after an hour. Without JavaScript the page reloads itself (a <noscript> refresh).
;(() => {
  const live = () => [...document.querySelectorAll('[data-live="on"][id]')]
  if (live().length === 0) return
  const started = Date.now()
  let wait = 1000
  const next = () => {
    if (Date.now() - started < 3_600_000) setTimeout(poll, wait)
    wait = Math.min(10_000, Math.round(wait * 1.5))
  }
  const poll = () =>
    fetch(location.href, { headers: { accept: "text/html" }, credentials: "same-origin" })
      .then((response) => (response.ok ? response.text() : Promise.reject(response.status)))
      .then((html) => {
        const fresh = new DOMParser().parseFromString(html, "text/html")
        for (const current of live()) {
          const copy = fresh.getElementById(current.id)
          if (copy) current.replaceWith(document.importNode(copy, true))
        }
        if (live().length > 0) next()
      })
      .catch(next)
  next()
})()
