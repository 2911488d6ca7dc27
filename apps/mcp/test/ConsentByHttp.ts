import { assert } from "@effect/vitest"
import { MemoryOutbox } from "@margin/core/memory/MemoryMailer"
import { Effect } from "effect"
import { formPost, httpBrowser } from "./HttpBrowser.ts"

/** One `<input>` of a page: its attributes, entities decoded. */
interface Field {
  readonly type: string
  readonly name: string
  readonly value: string
  readonly checked: boolean
  readonly disabled: boolean
}

const decode = (text: string): string =>
  text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))

const attribute = (tag: string, name: string): string | undefined => {
  const match = new RegExp(`\\b${name}="([^"]*)"`).exec(tag)
  return match?.[1] === undefined ? undefined : decode(match[1])
}

const fieldsOf = (html: string): ReadonlyArray<Field> =>
  Array.from(html.matchAll(/<input\b([^>]*)>/g), (match) => {
    const tag = match[1] ?? ""
    return {
      type: attribute(tag, "type") ?? "text",
      name: attribute(tag, "name") ?? "",
      value: attribute(tag, "value") ?? "",
      checked: /\bchecked\b/.test(tag),
      disabled: /\bdisabled\b/.test(tag)
    }
  })

/** What a browser would submit of a form: hidden fields, and the ticked radios and checkboxes. */
const submitted = (html: string, extra: Readonly<Record<string, string>>): URLSearchParams => {
  const form = new URLSearchParams()
  for (const field of fieldsOf(html)) {
    if (field.disabled) continue
    if (field.type === "hidden" || ((field.type === "radio" || field.type === "checkbox") && field.checked)) {
      form.append(field.name, field.value)
    }
  }
  for (const [name, value] of Object.entries(extra)) form.append(name, value)
  return form
}

/**
 * The sign-in page of an authorization request followed with plain HTTP up to the e-mail: answers
 * the link mailed to `email`, and the "browser" (cookies kept) that asked for it.
 */
export const signInLink = (authorizationUrl: URL, email: string) =>
  Effect.gen(function* () {
    const browse = httpBrowser()
    const send = (url: URL, init?: RequestInit) => Effect.promise(() => browse(url, init))
    const signIn = yield* send(authorizationUrl)
    assert.strictEqual(signIn.status, 200, signIn.html)
    assert.include(signIn.html, "Sign in to Margin")
    const sent = yield* send(new URL("/oauth/login", authorizationUrl), formPost(submitted(signIn.html, { email })))
    assert.strictEqual(sent.status, 200, sent.html)
    const outbox = yield* (yield* MemoryOutbox).sent
    const mail = outbox.filter((message) => message.to === email).at(-1)
    const link = mail === undefined ? undefined : /https?:\/\/\S+/.exec(mail.text)?.[0]
    if (link === undefined) return assert.fail(`no sign-in link mailed to ${email}`)
    return { send, link: new URL(link) }
  })

/**
 * The sign-in and consent pages followed with plain HTTP, as a browser without script would: the
 * sign-in form, the link from the outbox, the consent form with its defaults (the first eligible
 * workspace, every scope asked for) and the answer. Cookies are kept per this "browser".
 * Answers the URL the browser was sent back to (the client's redirect URI with code or error).
 */
export const consentByHttp = (authorizationUrl: URL, email: string, decision: "allow" | "deny" = "allow") =>
  Effect.gen(function* () {
    const { send, link } = yield* signInLink(authorizationUrl, email)
    const postForm = (url: URL, form: URLSearchParams) => send(url, formPost(form))
    const followed = yield* send(link)
    assert.strictEqual(followed.status, 303, followed.html)
    const consent = yield* send(followed.location ?? assert.fail("the link redirected nowhere"))
    assert.strictEqual(consent.status, 200, consent.html)
    assert.include(consent.html, "asks to act for you")
    const answered = yield* postForm(
      new URL("/oauth/authorize", authorizationUrl),
      submitted(consent.html, { decision })
    )
    assert.strictEqual(answered.status, 302, answered.html)
    return answered.location ?? assert.fail("no redirect after the consent")
  })
