import { assert } from "@effect/vitest"
import { MemoryOutbox } from "@margin/core/memory/MemoryMailer"
import { Effect, Schedule } from "effect"
import { formPost, httpBrowser, type PageReply } from "./HttpBrowser.ts"

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
export const submitted = (html: string, extra: Readonly<Record<string, string>>): URLSearchParams => {
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
    const before = yield* mailCount(email)
    const sent = yield* send(new URL("/oauth/login", authorizationUrl), formPost(submitted(signIn.html, { email })))
    assert.strictEqual(sent.status, 200, sent.html)
    return { send, link: yield* mailedLink(email, before) }
  })

/** How many mails `email` has had so far: `mailedLink` waits for a newer one. */
export const mailCount = (email: string) =>
  Effect.map(
    Effect.flatMap(MemoryOutbox, (outbox) => outbox.sent),
    (sent) => sent.filter((message) => message.to === email).length
  )

/**
 * The link of the newest sign-in mail to `email` after the first `before` ones. The mail is sent
 * beside the page's answer, not before it: waited for, up to a second.
 */
export const mailedLink = (email: string, before: number) =>
  Effect.flatMap(MemoryOutbox, (outbox) => outbox.sent).pipe(
    Effect.flatMap((sent) => {
      const mail = sent
        .filter((message) => message.to === email)
        .slice(before)
        .at(-1)
      const link = mail === undefined ? undefined : /https?:\/\/\S+/.exec(mail.text)?.[0]
      return link === undefined ? Effect.fail(`no sign-in link mailed to ${email}`) : Effect.succeed(new URL(link))
    }),
    Effect.retry({ schedule: Schedule.spaced("20 millis"), times: 50 }),
    Effect.catch((message) => Effect.sync(() => assert.fail(message)))
  )

/**
 * A sign-in link opened and confirmed, as a browser would: the "Continue as ..." page, then its
 * form posted. Answers the redirect (303 back to the authorization request, with the session cookie).
 */
export const followLink = (
  send: (url: URL, init?: RequestInit) => Effect.Effect<PageReply>,
  link: URL,
  email: string
) =>
  Effect.gen(function* () {
    const page = yield* send(link)
    assert.strictEqual(page.status, 200, page.html)
    assert.include(page.html, `Continue as ${email}`)
    return yield* send(new URL("/oauth/login/link", link), formPost(submitted(page.html, {})))
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
    const followed = yield* followLink(send, link, email)
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
