// # What a grammar costs llama.cpp
//
// llama.cpp's engine (src/llama-grammar.cpp) holds a set of pushdown stacks
// of grammar positions. For each code point, every stack whose top character
// element matches moves on, and advance_stack then expands a rule reference
// on top into one new stack per alternative of the rule, recursively, until
// each stack has a character on top; new stacks are deduplicated with a
// linear std::find. While sampling, every live stack is checked against the
// candidate tokens. So a grammar costs, per code point, about its live stacks
// (sampling) and the stacks it builds (accepting; each a vector copy). Every
// parenthesized group and every x? x* x+ x{m,n} is a rule of its own:
// x{0,n} is a chain of n rules, x{m} m inline copies.
//
// internal/llamastacks models that machine and counts instead of timing
// (stackcost compares our grammars with node-llama-cpp's own converter, the
// peer, on the same texts). On synthetic grammars node's timing fits the
// counts closely: about 130 ns per stack built plus 5 ns per duplicate-check
// comparison, on top of a fixed ~300 ns per code point; the depth of stacks
// and the width of classes hardly matter.
//
// What we learned and chose (figures: 492 corpus schemas, every fifth of
// JSONSchemaBench's five subsets, the same texts sampled from our compact
// grammar, model counts; node timing where stated):
//
//   - Alternatives that start alike multiply stacks. The complement of the
//     declared names (extra-name) was one flat list, one alternative per way
//     of leaving the names' trie: after the opening quote, one stack per
//     entry (up to 489), and along a name every entry that still fits. It is
//     now a trie of groups, one rule per node: about four stacks per code
//     point (stop, the child's character, another raw character, an escape).
//     Live stacks/cp 3.41 → 2.62, max live stacks mean 17.2 → 6.1, duplicate
//     checks/cp 29.6 → 3.7; rules 69 → 108 (more groups) but grammar
//     elements 1613 → 963 (fewer repeated classes). Timed in node against
//     the former grammars in the same process, taking turns (1079 schemas,
//     this and the ws change below): engine work per code point 0.37×
//     pooled, 0.53× per schema (geometric mean), parse 1.14× per schema.
//   - A choice written as an optional group, (a | b)?, is two rules and two
//     more stacks built each time it is entered; ws is written as its own
//     alternatives ( " " | "\n" indent | "" ): built/cp 4.72 → 4.36. Then
//     one class opens the slot ( [\n ] indent | "" ), so a slot keeps two
//     readings, not three (a space may now be followed by the indent too):
//     on 309 Glaiveai2K and Snowplow schemas, live stacks/cp 2.53 → 2.34
//     (peer 2.67), schemas above the peer 169 → 139, peak stacks 5.70 → 4.70.
//   - Inside a string three stacks are the minimum (another character, an
//     escape, the closing quote): string ::= "\"" char* "\"" keeps exactly
//     those (the peer keeps four). A right-recursive rest rule would build a
//     stack less per character, but the regex emitter refuses recursion.
//   - x{0,n} for big n is a chain upto-n ::= x{0,k-1} | x{k} upto-(n-k) with
//     k = ⌈√n⌉ (repeat.go): about 2√n rules and two live readings (a chunk
//     that completes, or the short rest). One reading needs n rules (what
//     llama.cpp makes of x{0,n} itself, refused near 2000); the former
//     base-100 blocks kept four; a multi-level chain (blocks of 16, of 256, …)
//     has fewer rules (sp_93: 0.7× node time on short texts) but one more
//     live reading per level (1.4× on 1000-character strings). Up to
//     n = 100 (MaxRepeatCount) x{0,n} is now printed as it is, one reading
//     for n rules, where the chain started at 17: on the 143 corpus schemas
//     with a maxLength from 17 to 100 that compile, against the chain (same
//     texts), live stacks/cp 0.922x and node's engine work per code point
//     0.891x (per schema, geometric mean, worse on 6 of 143 by at most
//     1.11x), for llama.cpp's rules 1.29x and its parse 1.17x. The parse is
//     paid once per request; the live stacks at every token, where each is
//     checked against the candidate tokens.
//   - What remains above the peer is structural. Whitespace slots (before and
//     after ":" and "," and inside brackets) cost a stack each: our compact
//     grammar had 2.26 live stacks/cp where the default had 2.62 and the peer
//     2.76, before the one-class slot above.
//   - Optional members are a chain of alternatives, one per member that may
//     come next, the extra-name trie alive beside them: after "{" of an
//     object with 40 optional properties, 40+ stacks. It is the
//     cause in 26 of the 30 schemas where node's work per code point was
//     worst against the peer (up to 7x; the peer makes every property
//     required and forbids extras, so it pays one stack per name
//     character). Tried and withdrawn: the names that may come next (the
//     optional ones up to the next required one) as one trie, persistent
//     so that the grammar stays linear in the names' length, and past the
//     last required member merged node by node with the complement of the
//     declared names: a stack per distinct next character. With the enum
//     trie below, on 4926 corpus schemas (texts from both grammars, model
//     counts): live stacks/cp 0.970x pooled (worse on none), peak stacks
//     0.833x, schemas above the peer 1524 -> 1401; rules 1.061x per schema
//     (Snowplow sp_302..306, 75 optional names all starting with "t", 2.6x:
//     persistence copies each name's branch points). Node, 207 schemas
//     against the chain in one process, taking turns: engine work per code
//     point 0.961x, parse 1.31x, a whole check of a 630-code-point text
//     1.03x. And compiling took 1.6x as long (corpus median of each
//     schema's fastest of 5: 108 -> 173 µs; allocations 2x; p99 0.95 ->
//     1.9 ms) for 460 lines of code. 4% less work per token for 31% more
//     parse per request and a slower compile: not worth it (the code is in
//     the history: e046dcc, 3780c9f). Even with it, four or five stacks
//     stay along a declared name when extras are allowed: the
//     complement's next character, another raw one, an escape and the end
//     of an extra name, the price of allowing extras exactly.
//   - A reference costs a stack copy before the character under it is met:
//     canonical-escape was "\\" (...), and every trie node reached it by
//     reference; now the backslash is written at the use and the rule is
//     what follows it, so along a name in an extra-name trie llama.cpp
//     copies 7 stacks per character, not 8 (the peer: 1). On the 1079
//     schemas: stacks built/cp 0.981x, model time/cp 0.982x, worse on
//     none, rules 0.993x. Writing each node's canonical-tail-not-X
//     alternatives into the node would save one more copy per character,
//     for a class and an escape more per node in the text llama.cpp
//     parses: not done.
//   - The comma and the opening quote of the next member are written once
//     for all the members that may come next ("," ws "\"" then the
//     choice of names, objectExpr), not at the head of each alternative:
//     with k optional members left, the k stacks used to be built at the
//     comma, again at the whitespace slot and again at the quote, and now
//     only at the names' first characters. The grammar does not grow
//     (elements 0.97x, llama.cpp's rules 0.98x per schema). On 1079
//     corpus schemas against the former grammars (same texts, model
//     counts): stacks built/cp 0.934x, model time/cp 0.932x, worse on
//     none; node, 540 schemas taking turns: engine work per code point
//     0.914x per schema (geometric mean), parse 1.009x.
//   - Enum members are a trie of their texts (schema.go, literalTrie): a
//     flat list of string members, all starting with a quote, kept a stack
//     per member until they parted (the most: 412 stacks). On the same
//     4926 schemas: peak stacks 0.958x pooled (the most 412 -> 64), live
//     stacks/cp 0.997x, worse on none; Github_medium o21112 (13 to 40
//     member enums) 15.0 -> 11.0 stacks/cp; rules 1.003x.
//   - Parsing: node-llama-cpp's isTextCompatible parses the grammar text again
//     for every text (llama_grammar_init_impl), so on short texts the parse
//     dominates. It follows the number of rules and elements: bounded strings
//     are one shared rule per pair of bounds, not a copy per property; a rule
//     that is only another rule's name is skipped; the indent {0,20} is
//     written as 4×4 + 4 (9 rules, not 20). Rule names count too: the same
//     grammars with every rule renamed r1, r2, ... parse 1.2x faster (207
//     corpus schemas); we keep names that say where a rule comes from
//     (shortening only the tries' names gained 2%). In real decoding the grammar is
//     parsed once per request and the stacks are paid per token.
package compile
