/**
 * A scripted OpenAI-compatible model on loopback, to try gateflow's model path
 * by hand (OPENAI_BASE_URL=http://127.0.0.1:PORT/v1) the way a person would:
 * what the "model" answers is chosen by rules on the person's message.
 *
 *   npx tsx scripts/scripted-model-server.ts --port 4011 --script rules.json
 *
 * rules.json: `{ "rules": [{ "when": "<regex on the message>", "answer": A }], "otherwise": A }`,
 * the first rule whose `when` matches answers; A is one of
 *   { "say": { "<question key>": { "value", "evidence", "confidence" } } }  (every other question "unknown")
 *   { "status": 500, "message": "…" }   an OpenAI-style error (the text a provider would send)
 *   { "content": "not json" }          a 200 whose message is this text
 *   { "hang": 60000 }                  answers "unknown" for everything after this many ms
 * The file is read again on every request. Each request is logged on stderr: the message, the questions offered, the answer given.
 * The server itself is the tests' (test/helpers/openai-compatible-server.ts).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  personMessage,
  respond,
  startOpenAICompatibleServer,
  type RecordedRequest,
  type Responder,
} from '../test/helpers/openai-compatible-server.js';

interface Said {
  value: string;
  evidence: string;
  confidence: number;
}
type Answer = { say: Record<string, Said> } | { status: number; message?: string } | { content: string } | { hang: number };
interface Script {
  rules?: { when: string; answer: Answer }[];
  otherwise?: Answer;
}

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, script: { type: 'string' } } });
/** The rules, read again on every request: edit the file while a conversation goes on. */
function readScript() {
  const script: Script = values.script ? (JSON.parse(readFileSync(values.script, 'utf8')) as Script) : {};
  const rules = (script.rules ?? []).map((r) => ({ when: new RegExp(r.when, 'i'), answer: r.answer }));
  return { rules, otherwise: script.otherwise ?? { say: {} } };
}

/** The questions the request offers (the keys of the answer schema gateflow sends). */
function offeredKeys(request: RecordedRequest): string[] {
  const body = request.body as { response_format?: { json_schema?: { schema?: { properties?: { answers?: { properties?: object } } } } } };
  return Object.keys(body.response_format?.json_schema?.schema?.properties?.answers?.properties ?? {});
}

function responderFor(answer: Answer, keys: string[]): Responder {
  const unknownAll = () => Object.fromEntries(keys.map((k) => [k, { value: 'unknown', evidence: '', confidence: 0.9 }]));
  if ('say' in answer) return respond.json({ answers: { ...unknownAll(), ...pick(answer.say, keys) } });
  if ('status' in answer) return respond.error(answer.status, answer.message ?? 'internal error');
  if ('content' in answer) return respond.content(answer.content);
  return respond.delayed(answer.hang, respond.json({ answers: unknownAll() }));
}

/** Only the offered questions: a real model answers the schema it is sent. */
function pick(say: Record<string, Said>, keys: string[]): Record<string, Said> {
  return Object.fromEntries(Object.entries(say).filter(([k]) => keys.includes(k)));
}

const server = await startOpenAICompatibleServer({ port: Number(values.port) });
// One responder that queues itself again: every request is answered by the rules.
const dispatch: Responder = (request, res) => {
  server.enqueue(dispatch);
  const message = personMessage(request);
  const keys = offeredKeys(request);
  const { rules, otherwise } = readScript();
  const answer = rules.find((r) => r.when.test(message))?.answer ?? otherwise;
  process.stderr.write(`model <- ${JSON.stringify(message)} (offered: ${keys.join(', ')})\nmodel -> ${JSON.stringify(answer)}\n`);
  return responderFor(answer, keys)(request, res);
};
server.enqueue(dispatch);
process.stdout.write(`OPENAI_BASE_URL=${server.baseURL}\n`);
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
