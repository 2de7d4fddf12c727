// # What a grammar costs llama.cpp
//
// Measured with bench/peer's llama.cpp harness (node-llama-cpp 3.21.1), hand
// variants of one schema's grammar timed in one process, taking turns:
//
//   - node-llama-cpp's isTextCompatible parses the whole grammar text again
//     for every text it checks (llama_grammar_init_impl on the source), so on
//     the short texts of most schemas the cost is the grammar's parse, not
//     the characters. It follows the number of rules llama.cpp makes more than
//     the bytes: each parenthesized group is a rule, x{0,n} is n rules, x{m}
//     is m inline copies (no rule), x? and x* are one rule each.
//   - So: bounded strings are one shared rule per pair of bounds
//     (string-0-4096), not a copy per property; a rule that is only another
//     rule's name is skipped; the names' complement of extra-name is one
//     flat list of alternatives, not one nested group per character (fewer
//     rules although more bytes: Glaiveai2K/analyze_health_data 368 → 282 µs
//     for 4 texts), with every escape after a path in one alternative; the
//     whitespace indent {0,20} is written as 4×4 + 4 (9 rules, not 20).
//     Moving the per-character "not X" classes of the flat list back into
//     shared rules saved 25% of the bytes and cost 10% more time.
//   - Along a long string, every live reading is a stack copied on every
//     code point. x{0,n} for big n is a chain upto-n ::= x{0,k-1} | x{k}
//     upto-(n-k) with k = ⌈√n⌉ (repeat.go): about 2√n rules and two live
//     readings. The former base-100 blocks (x100{0,39} x{0,99} | x100{40}
//     x{0,96}) kept four; a multi-level chain (blocks of 16, of 256, …) has
//     fewer rules (sp_93: 0.7× on short texts) but one more live reading per
//     level (1.4× on 1000-character strings), so it was not kept.
//   - Texts sampled in compact form never walk the whitespace or extra-member
//     branches, but those branches' rules are parsed for every text.
package compile
