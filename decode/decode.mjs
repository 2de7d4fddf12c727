// decode.mjs samples from a GGUF model under a GBNF grammar with llama.cpp
// (node-llama-cpp, installed in ../interop/node_modules) for schema2gbnf's
// decoding tests. Usage: node decode.mjs MODEL.gguf. It speaks
// newline-delimited JSON, one request per line, one reply per line, in order:
//
//   {"id":1,"op":"version"}                       -> {"id":1,"versions":{...}}
//   {"id":2,"op":"load","grammar":"root ::= .."}  -> {"id":2,"handle":3}
//   {"id":3,"op":"peer","schema":{...}}           -> {"id":3,"handle":4,"grammar":"root ::= .."}
//   {"id":4,"op":"free","handle":3}               -> {"id":4}
//   {"id":5,"op":"generate","handle":3,"seed":7,"maxTokens":200,"watchMs":30000,
//             "bias":[[id,logit],..]}             -> {"id":5,"tokens":[..],"end":"eos"|"budget"|"done"|"failed","ms":12.5}
//
// handle 0 generates without a grammar. Tokens come back as ids, so the Go
// side recovers the exact bytes (no detokenizer holding back partial UTF-8).
// A generation the grammar leaves with no possible token makes this
// node-llama-cpp reject a promise nobody awaits; it is routed to the
// generation, which ends "failed", with "why", and the process exits, to be
// restarted by the Go side. Nothing is timed: when a token takes longer
// than watchMs, a note on stderr says which one and what came before
// (the Go side's watchdog shows it), and the wait goes on.
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import {fileURLToPath, pathToFileURL} from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.join(here, "..", "interop", "node_modules", "node-llama-cpp");
const {getLlama, LlamaGrammarEvaluationState, TokenBias} = await import(
    pathToFileURL(path.join(pkgDir, "dist", "index.js")).href);

const modelPath = process.argv[2];
const llama = await getLlama({gpu: false, build: "never", logLevel: "error", logger: () => {}});
const model = await llama.loadModel({modelPath, gpuLayers: 0});
const context = await model.createContext({contextSize: 1024, sequences: 1, threads: 1, batchSize: 64});
const sequence = context.getSequence();
const bos = model.tokens.bos;

// When the grammar leaves no possible token, this node-llama-cpp either hangs
// or rejects a promise nobody awaits ("Unexpected empty grammar stack"): the
// rejection is routed to the generation running, which then ends "failed".
let failGeneration = null;
process.on("unhandledRejection", (err) => {
    if (failGeneration) failGeneration(err);
    else process.stderr.write(`unhandled rejection outside a generation: ${err?.message ?? err}\n`);
});

const grammars = new Map();
let nextHandle = 1;

async function generate(req) {
    const grammar = req.handle ? grammars.get(req.handle) : undefined;
    if (req.handle && grammar === undefined) throw new Error(`no grammar with handle ${req.handle}`);
    const bias = new TokenBias(model.tokenizer);
    // Set directly: TokenBias.set skips end-of-generation tokens, and the
    // harness wants to favour EOS where the grammar allows it.
    for (const [id, logit] of req.bias ?? []) bias._biases.set(id, logit === null ? -Infinity : logit);
    await sequence.clearHistory();
    const state = grammar ? new LlamaGrammarEvaluationState({model, grammar}) : undefined;
    const tokens = [];
    const start = performance.now();
    const it = sequence.evaluate([bos], {
        temperature: 1, topK: 0, topP: 1, minP: 0, seed: req.seed,
        grammarEvaluationState: state, tokenBias: bias, yieldEogToken: true,
    });
    let end = "budget";
    const watching = {};
    while (tokens.length < req.maxTokens) {
        const failed = new Promise((resolve) => { failGeneration = (err) => resolve({failed: err}); });
        const next = it.next().catch((err) => ({failed: err}));
        const waitStart = performance.now();
        let r;
        for (;;) {
            let timer;
            const watch = new Promise((resolve) => { timer = setTimeout(() => resolve(watching), req.watchMs); });
            r = await Promise.race([next, failed, watch]);
            clearTimeout(timer);
            if (r !== watching) break;
            process.stderr.write(`watchdog: generate handle=${req.handle} seed=${req.seed} has waited ` +
                `${Math.round(performance.now() - waitStart)} ms for token ${tokens.length + 1}; tokens so far ${JSON.stringify(tokens)}\n`);
        }
        failGeneration = null;
        if (r.failed !== undefined) {
            return {tokens, end: "failed", why: String(r.failed?.message ?? r.failed), ms: performance.now() - start, exit: true};
        }
        if (r.done) { end = "done"; break; }
        if (model.isEogToken(r.value)) { end = "eos"; break; }
        tokens.push(r.value);
    }
    const ms = performance.now() - start;
    await it.return();
    return {tokens, end, ms};
}

async function serve(req) {
    switch (req.op) {
        case "version": {
            const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json")));
            return {versions: {node: process.version, "node-llama-cpp": pkg.version}};
        }
        case "load": {
            const g = await llama.createGrammar({grammar: req.grammar});
            const handle = nextHandle++;
            grammars.set(handle, g);
            return {handle};
        }
        case "peer": {
            const g = await llama.createGrammarForJsonSchema(req.schema);
            const handle = nextHandle++;
            grammars.set(handle, g);
            return {handle, grammar: g.grammar};
        }
        case "free":
            grammars.delete(req.handle);
            return {};
        case "generate":
            return await generate(req);
        default:
            throw new Error(`unknown op ${JSON.stringify(req.op)}`);
    }
}

const lines = readline.createInterface({input: process.stdin, crlfDelay: Infinity});
for await (const line of lines) {
    if (line.trim() === "") continue;
    let req = {};
    try {
        req = JSON.parse(line);
        const res = await serve(req);
        process.stdout.write(JSON.stringify({id: req.id, ...res}) + "\n");
        if (res.exit) process.exit(3);
    } catch (err) {
        process.stdout.write(JSON.stringify({id: req.id ?? null, error: err?.message ?? String(err)}) + "\n");
    }
}
process.exit(0);
