// timing.mjs: how the benchmarks time llama.cpp's grammar engine, in one
// place (bench/peer/llama.mjs and bench/stackcost/engine.mjs import it from
// this folder, where node-llama-cpp is installed).
//
// node-llama-cpp's isTextCompatible parses the grammar source on every call
// (AddonGrammar.cpp), so a check costs one parse plus the engine's work on
// the text's code points; a check of "" is the parse alone (and the set-up
// of the first stacks). engineWork measures both right beside each other.
import {getLlama} from "node-llama-cpp";
// The peer's converter alone: not among the package's exports, so by path.
export {getGbnfGrammarForGbnfJsonSchema} from "./node_modules/node-llama-cpp/dist/utils/gbnfJson/getGbnfGrammarForGbnfJsonSchema.js";

// loadLlama starts llama.cpp's CPU build; logger gets its messages.
export function loadLlama(logger = () => {}) {
    return getLlama({gpu: false, build: "never", logLevel: "warn", logger});
}

export const micros = (t0) => Number(process.hrtime.bigint() - t0) / 1000;

// engineWork times grammars (node-llama-cpp's internal _grammar objects) on
// texts: per grammar, the fastest pass of isTextCompatible over every text
// (checkUs) and the fastest of texts.length checks of "" divided by their
// number (parseUs, one parse). The grammars take turns pass by pass, and
// within a turn the two parts swap order, so no side and no part always
// goes first; passes go on for at least 3 and until minMs has passed or
// maxReps passes are done. checkUs - texts.length*parseUs is the work on
// the texts.
export function engineWork(grammars, texts, minMs = 50, maxReps = 50) {
    const checkUs = grammars.map(() => Infinity), parseUs = grammars.map(() => Infinity);
    const n = texts.length;
    const start = process.hrtime.bigint();
    let reps = 0;
    while (reps < 3 || (reps < maxReps && micros(start) < minMs * 1000)) {
        for (let k = 0; k < grammars.length; k++) {
            const i = (k + reps) % grammars.length;
            const g = grammars[i];
            for (const parseFirst of reps % 2 ? [true, false] : [false, true]) {
                const t0 = process.hrtime.bigint();
                if (parseFirst) {
                    for (let j = 0; j < n; j++) g.isTextCompatible("");
                    parseUs[i] = Math.min(parseUs[i], micros(t0) / n);
                } else {
                    for (const t of texts) g.isTextCompatible(t);
                    checkUs[i] = Math.min(checkUs[i], micros(t0));
                }
            }
        }
        reps++;
    }
    return {checkUs, parseUs, reps};
}

// serve answers one JSON request per stdin line with one JSON line, in order;
// a request that throws is answered {error}.
export async function serve(handle) {
    const {default: readline} = await import("node:readline");
    const rl = readline.createInterface({input: process.stdin, crlfDelay: Infinity});
    for await (const line of rl) {
        if (!line.trim()) continue;
        let out;
        try { out = await handle(JSON.parse(line)); } catch (e) { out = {error: "node: " + String(e && e.stack || e)}; }
        process.stdout.write(JSON.stringify(out) + "\n");
    }
}
