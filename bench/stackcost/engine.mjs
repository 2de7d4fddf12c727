// engine.mjs: the node side of stackcost. One JSON request per stdin line,
// one JSON answer per line. Needs interop/node_modules (cd interop && npm ci);
// the timing loop is interop/timing.mjs, shared with bench/peer.
//   {"op":"peer","schema":"<json>"}  -> {gbnf} | {error}: node-llama-cpp's own converter
//   {"op":"work","grammars":["<gbnf>",...],"texts":[...],"min_ms":50,"max_reps":200}
//     -> {check_us:[...], parse_us:[...], accepted:[[bool...]...]}: per grammar, the fastest pass
//        of isTextCompatible over every text, and of as many checks of "" (parse only); the
//        grammars take turns pass by pass.
import path from "node:path";
import {fileURLToPath, pathToFileURL} from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const interop = process.env.SCHEMA2GBNF_INTEROP || path.join(here, "..", "..", "interop");
const {loadLlama, engineWork, getGbnfGrammarForGbnfJsonSchema, serve} =
    await import(pathToFileURL(path.join(interop, "timing.mjs")).href);
console.warn = () => {};
const llama = await loadLlama();

await serve(async (req) => {
    switch (req.op) {
    case "peer":
        try { return {gbnf: getGbnfGrammarForGbnfJsonSchema(JSON.parse(req.schema))}; }
        catch (e) { return {error: String(e && e.message || e)}; }
    case "work": {
        const gs = [];
        for (const text of req.grammars) {
            try { gs.push((await llama.createGrammar({grammar: text}))._grammar); }
            catch (e) { return {error: String(e && e.message || e)}; }
        }
        const accepted = gs.map((g) => req.texts.map((t) => g.isTextCompatible(t)));
        const w = engineWork(gs, req.texts, req.min_ms ?? 50, req.max_reps ?? 200);
        // parse_us here is the parse of every text's check together.
        return {check_us: w.checkUs, parse_us: w.parseUs.map((us) => us * req.texts.length), accepted, reps: w.reps};
    }
    default:
        return {error: "unknown op " + req.op};
    }
});
