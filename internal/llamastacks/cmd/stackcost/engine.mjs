// engine.mjs: the node side of stackcost. One JSON request per stdin line,
// one JSON answer per line. Needs interop/node_modules (cd interop && npm ci).
//   {"op":"peer","schema":"<json>"}  -> {gbnf} | {error}: node-llama-cpp's own converter
//   {"op":"work","grammars":["<gbnf>",...],"texts":[...],"min_ms":50,"max_reps":200}
//     -> {check_us:[...], parse_us:[...], accepted:[[bool...]...]}: per grammar, the fastest pass
//        of isTextCompatible over every text, and of as many checks of "" (parse only); the
//        grammars take turns pass by pass.
import path from "node:path";
import readline from "node:readline";
import {fileURLToPath, pathToFileURL} from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const interop = process.env.SCHEMA2GBNF_INTEROP || path.join(here, "..", "..", "..", "..", "interop");
const dist = path.join(interop, "node_modules", "node-llama-cpp", "dist");
const {getLlama} = await import(pathToFileURL(path.join(dist, "index.js")).href);
const {getGbnfGrammarForGbnfJsonSchema} = await import(
    pathToFileURL(path.join(dist, "utils", "gbnfJson", "getGbnfGrammarForGbnfJsonSchema.js")).href);
console.warn = () => {};
const llama = await getLlama({gpu: false, build: "never", logLevel: "error", logger: () => {}});
const micros = (t0) => Number(process.hrtime.bigint() - t0) / 1000;

async function handle(req) {
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
        const check = gs.map(() => Infinity), parse = gs.map(() => Infinity);
        const minMs = req.min_ms ?? 50, maxReps = req.max_reps ?? 200;
        const start = process.hrtime.bigint();
        let reps = 0;
        while (reps < 3 || (reps < maxReps && micros(start) < minMs * 1000)) {
            for (let k = 0; k < gs.length; k++) {
                const i = (k + reps) % gs.length;
                const g = gs[i];
                let t0 = process.hrtime.bigint();
                for (const t of req.texts) g.isTextCompatible(t);
                check[i] = Math.min(check[i], micros(t0));
                t0 = process.hrtime.bigint();
                for (let n = 0; n < req.texts.length; n++) g.isTextCompatible("");
                parse[i] = Math.min(parse[i], micros(t0));
            }
            reps++;
        }
        return {check_us: check, parse_us: parse, accepted, reps};
    }
    default:
        return {error: "unknown op " + req.op};
    }
}

const rl = readline.createInterface({input: process.stdin, crlfDelay: Infinity});
for await (const line of rl) {
    if (!line.trim()) continue;
    let out;
    try { out = await handle(JSON.parse(line)); } catch (e) { out = {error: "node: " + String(e && e.stack || e)}; }
    process.stdout.write(JSON.stringify(out) + "\n");
}
