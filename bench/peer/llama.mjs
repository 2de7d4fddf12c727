// llama.mjs: the node side of bench/peer. It runs llama.cpp's grammar engine
// and node-llama-cpp's own JSON Schema converter (the peer), timed inside
// node, and answers one JSON request per stdin line with one JSON line.
// It reuses the interop harness's install and timing loop
// (interop/node_modules, interop/timing.mjs); set SCHEMA2GBNF_INTEROP to a
// folder holding both to point elsewhere.
//
// Requests (id names a loaded grammar):
//   {"op":"peer","schema":"<json text>","runs":5} -> {gbnf, create_us, parse_us, convert_us, warnings} | {error}
//        JSON.parse and the converter run `runs` times each (default 2), the fastest run counts;
//        create_us is one createGrammarForJsonSchema after them.
//   {"op":"load","id":"a","grammar":"<gbnf>"}   -> {load_us} | {error}
//   {"op":"accepts","id":"a","texts":[...]}     -> {accepted:[bool...]}
//   {"op":"time","ids":["a","b"],"texts":[...],"min_ms":50,"max_reps":50}
//        -> {us:[µs per pass, one per id], reps}: each pass checks every text once with
//           isTextCompatible; the ids take turns pass by pass and the fastest pass counts.
//   {"op":"work","ids":["a","b"],"texts":[...],"min_ms":50,"max_reps":50}
//        -> {check_us:[µs per pass, one per id], parse_us:[µs per empty check, one per id], reps}:
//           interop/timing.mjs's engineWork: check_us - texts.length*parse_us is the engine's
//           work on the texts.
//   {"op":"free","id":"a"}                      -> {}
import path from "node:path";
import {fileURLToPath, pathToFileURL} from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const interop = process.env.SCHEMA2GBNF_INTEROP || path.join(here, "..", "..", "interop");
const {loadLlama, engineWork, getGbnfGrammarForGbnfJsonSchema, micros, serve} =
    await import(pathToFileURL(path.join(interop, "timing.mjs")).href);

// llama.cpp prints grammar parse errors through the logger; keep the last ones for the error text.
let logs = [];
// The peer reports what it does not support with console.warn and goes on; collect it per request.
let warnings = [];
console.warn = (...args) => { warnings.push(args.join(" ")); };
const llama = await loadLlama((level, message) => { logs.push(String(message).trim()); if (logs.length > 5) logs.shift(); });

const grammars = new Map();
const loaded = (ids) => {
    const gs = ids.map((id) => grammars.get(id));
    return gs.some((g) => !g) ? null : gs.map((g) => g._grammar);
};

await serve(async (req) => {
    switch (req.op) {
    case "peer": {
        const runs = req.runs ?? 2;
        let schema, parse_us = Infinity;
        try {
            for (let i = 0; i < runs; i++) { // JSON.parse, timed as the converter is: ours reads the text too
                const t0 = process.hrtime.bigint();
                schema = JSON.parse(req.schema);
                parse_us = Math.min(parse_us, micros(t0));
            }
        } catch (e) { return {error: "JSON.parse: " + e.message}; }
        try {
            warnings = [];
            let gbnf, convert_us = Infinity;
            for (let i = 0; i < runs; i++) { // the first run warms the JIT; the fastest counts
                const t0 = process.hrtime.bigint();
                gbnf = getGbnfGrammarForGbnfJsonSchema(schema);
                convert_us = Math.min(convert_us, micros(t0));
            }
            const warned = warnings.slice(0, 3);
            logs = [];
            const t0 = process.hrtime.bigint();
            // Converts again, then has llama.cpp parse the grammar: what a user of the peer pays.
            await llama.createGrammarForJsonSchema(schema);
            const create_us = micros(t0);
            return {gbnf, parse_us, convert_us, create_us, warnings: warned};
        } catch (e) {
            return {error: String(e && e.message || e) + (logs.length ? " | " + logs.join(" | ") : "")};
        }
    }
    case "load": {
        logs = [];
        try {
            const t0 = process.hrtime.bigint();
            const g = await llama.createGrammar({grammar: req.grammar});
            const load_us = micros(t0);
            grammars.set(req.id, g);
            return {load_us};
        } catch (e) {
            return {error: String(e && e.message || e) + (logs.length ? " | " + logs.join(" | ") : "")};
        }
    }
    case "accepts": {
        const gs = loaded([req.id]);
        if (!gs) return {error: "no grammar " + req.id};
        return {accepted: req.texts.map((t) => gs[0].isTextCompatible(t))};
    }
    case "time": {
        const gs = loaded(req.ids);
        if (!gs) return {error: "no grammar among " + req.ids.join(",")};
        const best = gs.map(() => Infinity);
        const minMs = req.min_ms ?? 50, maxReps = req.max_reps ?? 50;
        const start = process.hrtime.bigint();
        let reps = 0;
        while (reps < 3 || (reps < maxReps && micros(start) < minMs * 1000)) {
            for (let k = 0; k < gs.length; k++) {
                const i = (k + reps) % gs.length; // take turns: no side always goes first
                const t0 = process.hrtime.bigint();
                for (const t of req.texts) gs[i].isTextCompatible(t);
                best[i] = Math.min(best[i], micros(t0));
            }
            reps++;
        }
        return {us: best, reps};
    }
    case "work": {
        const gs = loaded(req.ids);
        if (!gs) return {error: "no grammar among " + req.ids.join(",")};
        const w = engineWork(gs, req.texts, req.min_ms ?? 50, req.max_reps ?? 50);
        return {check_us: w.checkUs, parse_us: w.parseUs, reps: w.reps};
    }
    case "free":
        grammars.delete(req.id);
        return {};
    default:
        return {error: "unknown op " + req.op};
    }
});
