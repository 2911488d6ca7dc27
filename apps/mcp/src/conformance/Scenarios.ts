/**
 * The server scenarios of @modelcontextprotocol/conformance (0.1.16) and which of them apply to
 * the margin server. Most scenarios call fixture tools, prompts or resources of the reference
 * "everything" server (`test_simple_text`, `test_prompt_with_arguments`...): a product server
 * does not have them. Every scenario the suite lists must appear in one of the two lists, so a
 * new scenario in a later version is a decision, not a silent skip.
 */
export const applicable = [
  "server-initialize",
  "ping",
  "tools-list",
  "logging-set-level",
  "dns-rebinding-protection",
  "server-sse-multiple-streams"
] as const

const fixtureTool = "calls a fixture tool of the reference server; margin's tools are its own"
const noPrompts = "margin serves no prompts"
const noResources = "margin serves no resources"

export const notApplicable: Readonly<Record<string, string>> = {
  "completion-complete": `completes the arguments of a fixture prompt; ${noPrompts} and no resource templates`,
  "tools-call-simple-text": fixtureTool,
  "tools-call-image": `${fixtureTool}; margin's tools answer JSON, never images`,
  "tools-call-audio": `${fixtureTool}; margin's tools answer JSON, never audio`,
  "tools-call-embedded-resource": `${fixtureTool}; ${noResources}`,
  "tools-call-mixed-content": `${fixtureTool}; margin's tools answer one JSON document`,
  "tools-call-with-logging": `${fixtureTool}; margin's tools send no log notifications`,
  "tools-call-error": `${fixtureTool}; margin's error results are tested with the SDK client (MarginToolkit.test.ts)`,
  "tools-call-with-progress": `${fixtureTool}; margin's tools are short and report no progress`,
  "tools-call-sampling": `${fixtureTool}; margin never asks the client's model to sample`,
  "tools-call-elicitation": `${fixtureTool}; margin never elicits input from the user`,
  "json-schema-2020-12": `${fixtureTool} with a 2020-12 input schema`,
  "elicitation-sep1034-defaults": "elicits from a fixture tool; margin never elicits",
  "elicitation-sep1330-enums": "elicits from a fixture tool; margin never elicits",
  "server-sse-polling":
    "needs a fixture tool that streams SSE events with resumption; margin answers each POST with one response and refuses the optional GET stream (405), as the transport allows",
  "resources-list": noResources,
  "resources-read-text": noResources,
  "resources-read-binary": noResources,
  "resources-templates-read": noResources,
  "resources-subscribe": noResources,
  "resources-unsubscribe": noResources,
  "prompts-list": noPrompts,
  "prompts-get-simple": noPrompts,
  "prompts-get-with-args": noPrompts,
  "prompts-get-embedded-resource": noPrompts,
  "prompts-get-with-image": noPrompts
}
