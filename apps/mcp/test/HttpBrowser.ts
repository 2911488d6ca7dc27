/** What a page answered: its status, where it redirects (resolved), its body. */
export interface PageReply {
  readonly status: number
  readonly location: URL | undefined
  readonly html: string
}

/**
 * A browser without script, for following pages with plain HTTP: one cookie jar per host (paths
 * and expiry ignored), redirects not followed, so each step can be looked at.
 */
export const httpBrowser = () => {
  const jars = new Map<string, Map<string, string>>()
  return async (url: URL, init: RequestInit = {}): Promise<PageReply> => {
    const jar = jars.get(url.host) ?? new Map<string, string>()
    jars.set(url.host, jar)
    const cookie = Array.from(jar, ([name, value]) => `${name}=${value}`).join("; ")
    const response = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: { ...(cookie === "" ? {} : { cookie }), ...init.headers }
    })
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";")
      const eq = pair?.indexOf("=") ?? -1
      if (pair !== undefined && eq > 0) jar.set(pair.slice(0, eq), pair.slice(eq + 1))
    }
    const location = response.headers.get("location")
    return {
      status: response.status,
      location: location === null ? undefined : new URL(location, url),
      html: await response.text()
    }
  }
}

/** A form POST of `application/x-www-form-urlencoded` fields. */
export const formPost = (form: URLSearchParams): RequestInit => ({
  method: "POST",
  body: form.toString(),
  headers: { "content-type": "application/x-www-form-urlencoded" }
})
