/**
 * Every answer the REST test kit received in this test file (`call`, `postChunked`), for the check
 * that each one stays within the OpenAPI document (ResponseConformance.ts, run after every test file
 * of the apps by conformanceSetup.ts).
 */
export interface RecordedReply {
  readonly method: string
  /** As requested, query included. */
  readonly path: string
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
}

const replies: Array<RecordedReply> = []

export const recordReply = (reply: RecordedReply): void => {
  replies.push(reply)
}

/** The replies recorded so far in this test file. */
export const recordedReplies = (): ReadonlyArray<RecordedReply> => replies
