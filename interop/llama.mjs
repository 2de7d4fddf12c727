// llama.mjs runs llama.cpp's grammar engine (node-llama-cpp, CPU build) for
// schema2gbnf's interop tests. It is a long-lived process speaking
// newline-delimited JSON: one request per line on stdin, one reply per line
// on stdout, in order. Every reply echoes the request's "id"; a failed
// request gets {"id", "error", "detail"} and the process keeps serving.
//
// Requests:
//   {"id":1,"op":"version"}                        -> {"id":1,"versions":{...}}
//   {"id":2,"op":"load","grammar":"root ::= ..."}  -> {"id":2,"handle":7}
//   {"id":3,"op":"check","handle":7,"texts":[..]}  -> {"id":3,"accepted":[true,false,..]}
//   {"id":4,"op":"free","handle":7}                -> {"id":4}
//   {"id":5,"op":"peer","schema":{...}}            -> {"id":5,"grammar":"root ::= ..."}
//
// llama.cpp writes its parse error straight to stderr (fprintf) and reports
// other load errors (missing root, left recursion) through its log callback.
// When stderr is a regular file (the Go client makes it one) this script
// reads back what llama.cpp wrote there during the failed load and returns
// it as "detail", together with the logged messages.
import fs from "node:fs";
import readline from "node:readline";
import {getLlama} from "node-llama-cpp";

const logged = [];
const llama = await getLlama({
    gpu: false,
    build: "never",
    logLevel: "warn",
    logger: (level, message) => logged.push(String(message).trim()),
});

const stderrIsFile = (() => {
    try {
        return fs.fstatSync(2).isFile();
    } catch {
        return false;
    }
})();

function stderrSize() {
    return stderrIsFile ? fs.fstatSync(2).size : 0;
}

// stderrSince returns what was written to stderr after byte offset start.
// It reopens stderr for reading through /proc, since fd 2 is write-only.
function stderrSince(start) {
    if (!stderrIsFile) return "";
    let fd;
    try {
        fd = fs.openSync("/proc/self/fd/2", "r");
        const end = fs.fstatSync(fd).size;
        if (end <= start) return "";
        const n = Math.min(end - start, 64 * 1024);
        const buf = Buffer.alloc(n);
        const got = fs.readSync(fd, buf, 0, n, start);
        return buf.subarray(0, got).toString("utf8");
    } catch {
        return "";
    } finally {
        if (fd !== undefined) fs.closeSync(fd);
    }
}

const grammars = new Map();
let nextHandle = 1;

function grammarFor(handle) {
    const g = grammars.get(handle);
    if (g === undefined) throw new Error(`no loaded grammar with handle ${handle}`);
    return g;
}

async function load(text) {
    if (typeof text !== "string") throw new Error("load needs a string \"grammar\"");
    logged.length = 0;
    const start = stderrSize();
    try {
        const g = await llama.createGrammar({grammar: text});
        const handle = nextHandle++;
        grammars.set(handle, g);
        return {handle};
    } catch (err) {
        // Log callbacks arrive asynchronously: let them land first.
        await new Promise((resolve) => setTimeout(resolve, 20));
        const detail = [stderrSince(start).split("\n")[0], ...logged]
            .filter((line) => line && !/^(\[node-llama-cpp\] )?failed to parse grammar$/i.test(line))
            .join("\n");
        const e = new Error(err?.message ?? String(err));
        e.detail = detail;
        throw e;
    }
}

function check(handle, texts) {
    if (!Array.isArray(texts) || !texts.every((t) => typeof t === "string")) {
        throw new Error("check needs \"texts\", an array of strings");
    }
    const g = grammarFor(handle);
    return {accepted: texts.map((t) => g._grammar.isTextCompatible(t))};
}

async function peer(schema) {
    if (schema === undefined) throw new Error("peer needs a \"schema\"");
    const g = await llama.createGrammarForJsonSchema(schema);
    return {grammar: g.grammar};
}

function versions() {
    const pkg = JSON.parse(fs.readFileSync(new URL("./node_modules/node-llama-cpp/package.json", import.meta.url)));
    const info = JSON.parse(fs.readFileSync(new URL("./node_modules/node-llama-cpp/llama/llama.cpp.info.json", import.meta.url)));
    return {versions: {node: process.version, "node-llama-cpp": pkg.version, "llama.cpp": info.tag}};
}

async function serve(req) {
    switch (req.op) {
        case "version":
            return versions();
        case "load":
            return await load(req.grammar);
        case "check":
            return check(req.handle, req.texts);
        case "free":
            grammarFor(req.handle);
            grammars.delete(req.handle);
            return {};
        case "peer":
            return await peer(req.schema);
        default:
            throw new Error(`unknown op ${JSON.stringify(req.op)}`);
    }
}

function reply(obj) {
    process.stdout.write(JSON.stringify(obj) + "\n");
}

const lines = readline.createInterface({input: process.stdin, crlfDelay: Infinity});
for await (const line of lines) {
    if (line.trim() === "") continue;
    let req;
    try {
        req = JSON.parse(line);
    } catch (err) {
        reply({id: null, error: `bad request: ${err.message}`});
        continue;
    }
    const id = req?.id ?? null;
    try {
        reply({id, ...(await serve(req ?? {}))});
    } catch (err) {
        reply({id, error: err?.message ?? String(err), detail: err?.detail ?? ""});
    }
}
process.exit(0);
