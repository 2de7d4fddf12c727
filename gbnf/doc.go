// Package gbnf holds llama.cpp's grammar format (GBNF) as a Go value: the
// grammar AST that the compiler builds and everything that reads, writes and
// runs it.
//
// # Parsing and printing
//
// Print (and Grammar.String) writes a grammar as llama.cpp-compatible text,
// one "name ::= body" line per rule, in order, escaping only with the escapes
// llama.cpp knows. Parse reads GBNF text the way llama.cpp's parser does and
// accepts exactly what it accepts, with a few documented refusals: invalid
// UTF-8, NUL bytes, token references, the escape \- (only recent releases
// know it), {m,n} with n < m, and the limits in Limits. Validate
// checks what llama.cpp checks when it loads a grammar: a root rule, every
// referenced rule defined, no left recursion; Parse calls it. Freeze checks
// once a set of rules that many grammars share (the compiler's helper
// rules, half the text of a small grammar): Print copies their text and
// Validate takes them as checked, as long as the names they refer to still
// name them.
//
// The AST is normalized by Parse so that Parse(Print(Parse(x))) equals
// Parse(x): groups dissolve into their content, nested sequences and
// alternatives are flattened, and every way of writing the empty string
// ("", [], [^], (), an empty alternative) becomes an empty Seq.
//
// # Matching and sampling
//
// NewMatcher compiles a grammar once; Matcher.Match (safe for concurrent
// use) says whether the grammar accepts a whole text, and if not, the byte
// offset of the first code point no parse could take (len(text) for an
// unfinished prefix), as llama.cpp's engine would: it works on code points,
// and a NUL never matches (llama.cpp sees tokens as C strings; beware that
// node-llama-cpp's isTextCompatible does hand a NUL to the engine, where
// "." and negated classes take it). Invalid UTF-8 decodes
// as utf8.DecodeRuneInString does, one U+FFFD per bad byte; that equals
// llama.cpp's unicode_cpts_from_utf8 for stray continuation bytes, bytes
// F8-FF and truncated sequences, but llama.cpp decodes overlong forms,
// surrogates and values above U+10FFFF to their code points (an overlong
// NUL included) where we see U+FFFD per byte. Token-level decoding in
// llama.cpp (decode_utf8 with partial sequences) differs again; only the
// engine can refuse those bytes.
//
// The matcher is an Earley recogniser rather than a copy of llama.cpp's
// stack set, whose stacks multiply on ambiguous grammars: Earley is cubic
// at worst and close to linear on the grammars the compiler emits. Each rule body becomes a
// small automaton (Thompson style): X* is a loop, not a recursive rule, and
// X{m,n} is m copies then n-m nested optional copies, compiled once (a big
// X becomes its own nonterminal, called per copy). Small non-recursive
// rules are inlined into their callers. Epsilon closures are precomputed
// and step over calls of nullable rules (Aycock–Horspool), so empty
// completions need no fixpoint. Items of a set that began at the same
// origin are grouped into state sets built lazily and cached with their
// transitions, a DFA per origin: inside a string or a run of whitespace a
// set holds a single item and a code point costs one table lookup. A rule
// is predicted only when the next code point can start it. Completions look
// up waiting items in a per-set index, and crowded sets deduplicate with a
// hash, so ambiguity costs O(n²) items and O(n³) time at worst. Left
// recursion is refused, as llama.cpp refuses it. MatcherLimits names every
// bound (states, closures, items per text, expression depth); Check
// returns the *MatcherLimitError that Match reports as a rejection.
//
// NewSampler makes random texts a grammar accepts, at most maxRunes code
// points each and deterministic for a seed. It computes each rule's
// shortest text (and the height of its derivation) so that every choice
// leaves room to finish; successive samples prefer alternatives and
// repetition counts (fewest, most) not taken yet, so every reachable rule
// shows up; class members are range edges half the time, never NUL or a
// surrogate. Below a depth bound it takes the cheapest way out.
package gbnf
