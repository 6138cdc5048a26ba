// One HTTP request, from its first line to its answer: admission is an ordered list of guards (the gate
// and identity, the body, the answers it may hold, the door), each of which may refuse (writeRefusal).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ClientCapabilities, createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import { Meter } from '../../limits/meter.js';
import { appsDeclared, VIEW_URI } from '../../views.js';
import { keepProtoArguments } from '../proto.js';
import { Answer } from './answer.js';
import { arrival, createBodies, isCancellation, isRefusal, isRequest, type Message } from './body.js';
import { createDoor, SessionCalls } from './door.js';
import { createIdentity } from './identity.js';
import type { Caller, HttpDeps, HttpOptions } from './options.js';
import type { Refusal } from './refusal.js';
import { firstRefusal, METERED, overMeter, refused, writeFault, writeRefusal } from './refusal.js';
import { capabilitiesOf, createSessions } from './session.js';

/** What a request's answer may hold, held from admission: the view page 512 KiB, a tool call 64 KiB, else 4 KiB. */
const estimate = (m: Message) => {
  if (!isRequest(m)) return 0;
  if (m.method === 'resources/read') return m.params?.uri === VIEW_URI ? 512 * 1024 : 64 * 1024;
  return m.method === 'tools/call' ? 64 * 1024 : 4 * 1024;
};

/** The path of a request target (origin-form or absolute-form); undefined when it cannot be read. */
function pathOf(target: string | undefined): string | undefined {
  if (!target) return undefined;
  if (target.startsWith('/')) return target.split(/[?#]/, 1)[0];
  return URL.canParse(target) ? new URL(target).pathname : undefined;
}

/** Headers of this hop, not of the request handed on. */
const HOP = new Set('host connection content-length transfer-encoding keep-alive upgrade expect'.split(' '));

/** A 2025 session id that fails verification: 404, as the spec says of a session the server no longer knows. */
const UNKNOWN_SESSION = refused(
  404,
  'Session not found: this Mcp-Session-Id was not issued by this server (or its key changed); send initialize again',
  { code: -32001 },
);

/** The request as the SDK takes it; its body was read and parsed already. */
function webRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (HOP.has(name) || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return new Request(`http://localhost${pathOf(req.url) ?? '/mcp'}`, { method: 'POST', headers, signal });
}

/** The request handler of the HTTP server, and what shutdown needs of it. */
export function createHandle(options: HttpOptions, deps: HttpDeps) {
  let closing = false;
  const sessions = createSessions(options.token);
  const identity = createIdentity(options, sessions, deps.callerKeys === true, () => closing);
  const answers = new Meter(options.maxUnsentPerCaller, options.maxUnsentBytes);
  const bodies = createBodies(options, answers);
  const door = createDoor(options, deps.logger);
  const calls = new SessionCalls();
  const callers = new WeakMap<Request, Caller>();
  const handler = createMcpHandler(({ requestInfo }) =>
    deps.makeServer(
      (requestInfo && callers.get(requestInfo)) ?? {
        apiKey: requestInfo?.headers.get('x-api-key')?.trim() || undefined,
        id: '',
        share: '',
        address: '',
        onEnd: () => {},
      },
    ),
  );

  const route = async (req: IncomingMessage, path: string | undefined): Promise<Refusal | undefined> => {
    if (path === undefined) return { status: 400, body: { error: 'bad request target' } };
    if (req.method === 'GET' && path === '/healthz') return { status: 200, body: { status: 'ok' } };
    if (req.method === 'GET' && path === '/readyz') {
      const { ready, detail } = await deps.ready();
      return { status: ready ? 200 : 503, body: { status: ready ? 'ready' : 'not ready', detail } };
    }
    return path === '/mcp' ? undefined : { status: 404, body: { error: 'not found; MCP is at /mcp' } };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const early = (await route(req, pathOf(req.url))) ?? (await identity.check(req));
    if (early) return writeRefusal(res, early);
    const who = identity.identify(req);
    const coming = arrival(req, who);
    const admitted = (await identity.newKey(who)) ?? (await firstRefusal(bodies.admission, coming));
    if (admitted) return writeRefusal(res, admitted);

    // Aborted when the connection goes, time runs out or every request is answered: the work is cancelled.
    const gone = new AbortController();
    const timer = setTimeout(() => {
      gone.abort();
      writeFault(res, refused(504, `Request took longer than ${options.requestTimeoutMs} ms`));
    }, options.requestTimeoutMs);
    let log = deps.logger;
    // Gives its door place back once: when its answer is written in full, or the connection goes.
    let leave = () => {};
    let left = false;
    const free = () => {
      if (left) return;
      left = true;
      leave();
    };
    res.once('close', () => {
      clearTimeout(timer);
      free();
      if (!res.writableFinished) gone.abort();
    });
    res.once('finish', () => clearTimeout(timer));
    try {
      const parsed = await bodies.read(req, res, coming);
      if (parsed === 'gone') return;
      if (isRefusal(parsed)) return writeRefusal(res, parsed);
      const { body, batch, all } = parsed;
      keepProtoArguments(body);
      const single = batch ? undefined : all[0];
      const initialize = single?.method === 'initialize';
      const webReq = webRequest(req, gone.signal);
      let session: string | undefined;
      let capabilities: ClientCapabilities | undefined;
      if (!initialize && who.sessionHeader !== undefined && (await isLegacyRequest(webReq, body))) {
        if (!who.claims) return writeRefusal(res, UNKNOWN_SESSION);
        session = who.sessionHeader;
        if (who.claims.apps) capabilities = capabilitiesOf(who.claims);
      }
      // Requests owed an answer, by id. A cancellation of a request in the same body answers it -32800 in
      // its place; one for another call of the same verified session ends that call.
      const owed = new Map<string, unknown>();
      for (const m of all) if (isRequest(m)) owed.set(JSON.stringify(m.id), m.id);
      const notification = owed.size === 0;
      const reserve = all.reduce((sum, m) => sum + estimate(m), 0);
      const tooMuch = `These requests may answer more than one caller may hold unread (${answers.perCaller} bytes): send fewer at once`;
      const said = reserve > answers.perCaller ? ([tooMuch, METERED.answers[1]] as const) : METERED.answers;
      const reserved = overMeter(answers.refuses(who.address, reserve), said);
      if (reserved) return writeRefusal(res, reserved);
      const noisy = notification && all.length > 0 ? door.notifications(who) : undefined;
      if (noisy) return writeRefusal(res, noisy);
      const answer = new Answer(res, {
        reserve,
        owed,
        batch,
        meter: answers,
        caller: who.address,
        maxBytes: options.maxAnswerBytes,
        sendTimeoutMs: options.sendTimeoutMs,
        produced: free,
        abandon: () => gone.abort(),
      });
      for (const { params } of all.filter(isCancellation))
        if (!answer.cancel(JSON.stringify(params?.requestId))) calls.cancel(session, params?.requestId);
      if (!notification && owed.size === 0) return;
      const rest = all.filter(
        (m) => !isCancellation(m) && !(isRequest(m) && !owed.has(JSON.stringify(m.id))),
      );
      if (!rest.length) return answer.answerOwn();
      // A session's request can be cancelled from the moment it is known, waiting or running.
      const members = new Map<string, AbortController>();
      if (session) {
        for (const key of owed.keys()) {
          const member = new AbortController();
          members.set(key, member);
          calls.add(session, key, () => answer.cancel(key) && member.abort(), res);
        }
      }
      if (!notification) {
        const refusal = await firstRefusal(door.guards, { who, initialize });
        if (refusal) return writeRefusal(res, refusal);
        const entered = await door.enter(who, res, gone.signal);
        if (entered === 'gone') return;
        if (typeof entered !== 'function') return writeRefusal(res, entered);
        leave = entered;
        if (left) leave();
      }
      const ended: Array<() => void> = [];
      res.once('close', () => {
        for (const end of ended) end();
      });
      const caller: Caller = {
        apiKey: who.apiKey,
        id: who.id,
        share: who.share,
        address: who.address,
        onEnd: (end) => ended.push(end),
        ...(members.size ? { cancelled: (id: unknown) => members.get(JSON.stringify(id))?.signal } : {}),
        ...(capabilities ? { capabilities } : {}),
      };
      callers.set(webReq, caller);
      // A caller's own key is never logged; a key the server ignores is no secret (redacting it would let
      // a caller rewrite lines).
      if (deps.callerKeys) log = deps.logger.redacting(caller.apiKey);
      const response = await handler.fetch(webReq, { parsedBody: batch ? rest : rest[0] });
      if (gone.signal.aborted || res.headersSent) {
        await response.body?.cancel().catch(() => {});
        return;
      }
      // A 2025 session starts here: its id carries what later requests need of what the client declared.
      const started =
        initialize && response.ok
          ? { 'mcp-session-id': sessions.issue({ apps: appsDeclared(single?.params?.capabilities) }) }
          : {};
      await answer.write(response, started);
    } catch (error) {
      if (gone.signal.aborted) return;
      log.error('HTTP request failed', { error });
      writeFault(res);
    }
  };

  return {
    handle,
    close() {
      closing = true;
    },
    get active() {
      return door.active;
    },
  };
}
