package strlang

import (
	"sync"
	"unicode"
)

// The character sets ECMA-262 names: the class escapes, `.`, and the
// Unicode properties of \p{…}, built from Go's unicode tables
// (UnicodeVersion). A validator built on another Unicode version may
// disagree on code points assigned or moved since.

// UnicodeVersion is the Unicode version of the property tables.
const UnicodeVersion = unicode.Version

var (
	digitSet = NewSet(Range{'0', '9'})
	wordSet  = NewSet(Range{'0', '9'}, Range{'A', 'Z'}, Range{'_', '_'}, Range{'a', 'z'})
	// lineTerminators are LineTerminator: what `.` does not match.
	lineTerminators = NewSet(Range{'\n', '\n'}, Range{'\r', '\r'}, Range{0x2028, 0x2029})
	dotSet          = lineTerminators.complement()
	// spaceSet is \s: WhiteSpace (tab, VT, FF, ZWNBSP and the Zs
	// separators) and LineTerminator.
	spaceSet = fromTable(unicode.Zs).union(NewSet(Range{'\t', '\r'}, Range{0xFEFF, 0xFEFF}, Range{0x2028, 0x2029}))
)

// fromTable turns a Go range table into a Set.
func fromTable(t *unicode.RangeTable) Set {
	var rs []Range
	for _, r := range t.R16 {
		rs = appendStrided(rs, rune(r.Lo), rune(r.Hi), rune(r.Stride))
	}
	for _, r := range t.R32 {
		rs = appendStrided(rs, rune(r.Lo), rune(r.Hi), rune(r.Stride))
	}
	return NewSet(rs...)
}

func appendStrided(rs []Range, lo, hi, stride rune) []Range {
	if stride == 1 {
		return append(rs, Range{lo, hi})
	}
	for c := lo; c <= hi; c += stride {
		rs = append(rs, Range{c, c})
	}
	return rs
}

// generalCategories maps every name ECMA-262 accepts for a
// General_Category value (short, long and the other aliases of Unicode's
// PropertyValueAliases.txt) to the short name.
var generalCategories = map[string]string{
	"C": "C", "Other": "C",
	"Cc": "Cc", "Control": "Cc", "cntrl": "Cc",
	"Cf": "Cf", "Format": "Cf",
	"Cn": "Cn", "Unassigned": "Cn",
	"Co": "Co", "Private_Use": "Co",
	"Cs": "Cs", "Surrogate": "Cs",
	"L": "L", "Letter": "L",
	"LC": "LC", "Cased_Letter": "LC",
	"Ll": "Ll", "Lowercase_Letter": "Ll",
	"Lm": "Lm", "Modifier_Letter": "Lm",
	"Lo": "Lo", "Other_Letter": "Lo",
	"Lt": "Lt", "Titlecase_Letter": "Lt",
	"Lu": "Lu", "Uppercase_Letter": "Lu",
	"M": "M", "Mark": "M", "Combining_Mark": "M",
	"Mc": "Mc", "Spacing_Mark": "Mc",
	"Me": "Me", "Enclosing_Mark": "Me",
	"Mn": "Mn", "Nonspacing_Mark": "Mn",
	"N": "N", "Number": "N",
	"Nd": "Nd", "Decimal_Number": "Nd", "digit": "Nd",
	"Nl": "Nl", "Letter_Number": "Nl",
	"No": "No", "Other_Number": "No",
	"P": "P", "Punctuation": "P", "punct": "P",
	"Pc": "Pc", "Connector_Punctuation": "Pc",
	"Pd": "Pd", "Dash_Punctuation": "Pd",
	"Pe": "Pe", "Close_Punctuation": "Pe",
	"Pf": "Pf", "Final_Punctuation": "Pf",
	"Pi": "Pi", "Initial_Punctuation": "Pi",
	"Po": "Po", "Other_Punctuation": "Po",
	"Ps": "Ps", "Open_Punctuation": "Ps",
	"S": "S", "Symbol": "S",
	"Sc": "Sc", "Currency_Symbol": "Sc",
	"Sk": "Sk", "Modifier_Symbol": "Sk",
	"Sm": "Sm", "Math_Symbol": "Sm",
	"So": "So", "Other_Symbol": "So",
	"Z": "Z", "Separator": "Z",
	"Zl": "Zl", "Line_Separator": "Zl",
	"Zp": "Zp", "Paragraph_Separator": "Zp",
	"Zs": "Zs", "Space_Separator": "Zs",
}

// categoryGroups are the categories that are unions of others. They are
// built here rather than taken from Go's C, L, … tables, so that C holds
// Cn (unassigned code points) whatever the Go release.
var categoryGroups = map[string][]string{
	"C":  {"Cc", "Cf", "Cn", "Co", "Cs"},
	"L":  {"Ll", "Lm", "Lo", "Lt", "Lu"},
	"LC": {"Ll", "Lt", "Lu"},
	"M":  {"Mc", "Me", "Mn"},
	"N":  {"Nd", "Nl", "No"},
	"P":  {"Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps"},
	"S":  {"Sc", "Sk", "Sm", "So"},
	"Z":  {"Zl", "Zp", "Zs"},
}

// tables holds the sets built so far, by a key such as "gc=Lu".
var tables sync.Map

func cached(key string, build func() Set) Set {
	if s, ok := tables.Load(key); ok {
		return s.(Set)
	}
	s, _ := tables.LoadOrStore(key, build())
	return s.(Set)
}

// category is the set of a General_Category value, by its short name.
func category(short string) Set {
	return cached("gc="+short, func() Set {
		if subs, ok := categoryGroups[short]; ok {
			var s Set
			for _, sub := range subs {
				s = s.union(category(sub))
			}
			return s
		}
		if short == "Cn" {
			// Unassigned: every code point of no other category.
			var assigned Set
			for name, t := range unicode.Categories {
				if len(name) == 2 && name != "Cn" && name != "LC" {
					assigned = assigned.union(fromTable(t))
				}
			}
			return assigned.complement()
		}
		return fromTable(unicode.Categories[short])
	})
}

// scriptAliases maps each script's short name (ISO 15924 code) to the
// long name Go's unicode.Scripts uses; both are valid in \p{sc=…}.
var scriptAliases = map[string]string{
	"Adlm": "Adlam", "Aghb": "Caucasian_Albanian", "Ahom": "Ahom", "Arab": "Arabic",
	"Armi": "Imperial_Aramaic", "Armn": "Armenian", "Avst": "Avestan", "Bali": "Balinese",
	"Bamu": "Bamum", "Bass": "Bassa_Vah", "Batk": "Batak", "Beng": "Bengali",
	"Bhks": "Bhaiksuki", "Bopo": "Bopomofo", "Brah": "Brahmi", "Brai": "Braille",
	"Bugi": "Buginese", "Buhd": "Buhid", "Cakm": "Chakma", "Cans": "Canadian_Aboriginal",
	"Cari": "Carian", "Cham": "Cham", "Cher": "Cherokee", "Chrs": "Chorasmian",
	"Copt": "Coptic", "Qaac": "Coptic", "Cpmn": "Cypro_Minoan", "Cprt": "Cypriot",
	"Cyrl": "Cyrillic", "Deva": "Devanagari", "Diak": "Dives_Akuru", "Dogr": "Dogra",
	"Dsrt": "Deseret", "Dupl": "Duployan", "Egyp": "Egyptian_Hieroglyphs", "Elba": "Elbasan",
	"Elym": "Elymaic", "Ethi": "Ethiopic", "Geor": "Georgian", "Glag": "Glagolitic",
	"Gong": "Gunjala_Gondi", "Gonm": "Masaram_Gondi", "Goth": "Gothic", "Gran": "Grantha",
	"Grek": "Greek", "Gujr": "Gujarati", "Guru": "Gurmukhi", "Hang": "Hangul",
	"Hani": "Han", "Hano": "Hanunoo", "Hatr": "Hatran", "Hebr": "Hebrew",
	"Hira": "Hiragana", "Hluw": "Anatolian_Hieroglyphs", "Hmng": "Pahawh_Hmong",
	"Hmnp": "Nyiakeng_Puachue_Hmong", "Hrkt": "Katakana_Or_Hiragana", "Hung": "Old_Hungarian",
	"Ital": "Old_Italic", "Java": "Javanese", "Kali": "Kayah_Li", "Kana": "Katakana",
	"Kawi": "Kawi", "Khar": "Kharoshthi", "Khmr": "Khmer", "Khoj": "Khojki",
	"Kits": "Khitan_Small_Script", "Knda": "Kannada", "Kthi": "Kaithi", "Lana": "Tai_Tham",
	"Laoo": "Lao", "Latn": "Latin", "Lepc": "Lepcha", "Limb": "Limbu",
	"Lina": "Linear_A", "Linb": "Linear_B", "Lisu": "Lisu", "Lyci": "Lycian",
	"Lydi": "Lydian", "Mahj": "Mahajani", "Maka": "Makasar", "Mand": "Mandaic",
	"Mani": "Manichaean", "Marc": "Marchen", "Medf": "Medefaidrin", "Mend": "Mende_Kikakui",
	"Merc": "Meroitic_Cursive", "Mero": "Meroitic_Hieroglyphs", "Mlym": "Malayalam", "Modi": "Modi",
	"Mong": "Mongolian", "Mroo": "Mro", "Mtei": "Meetei_Mayek", "Mult": "Multani",
	"Mymr": "Myanmar", "Nagm": "Nag_Mundari", "Nand": "Nandinagari", "Narb": "Old_North_Arabian",
	"Nbat": "Nabataean", "Newa": "Newa", "Nkoo": "Nko", "Nshu": "Nushu",
	"Ogam": "Ogham", "Olck": "Ol_Chiki", "Orkh": "Old_Turkic", "Orya": "Oriya",
	"Osge": "Osage", "Osma": "Osmanya", "Ougr": "Old_Uyghur", "Palm": "Palmyrene",
	"Pauc": "Pau_Cin_Hau", "Perm": "Old_Permic", "Phag": "Phags_Pa", "Phli": "Inscriptional_Pahlavi",
	"Phlp": "Psalter_Pahlavi", "Phnx": "Phoenician", "Plrd": "Miao", "Prti": "Inscriptional_Parthian",
	"Rjng": "Rejang", "Rohg": "Hanifi_Rohingya", "Runr": "Runic", "Samr": "Samaritan",
	"Sarb": "Old_South_Arabian", "Saur": "Saurashtra", "Sgnw": "SignWriting", "Shaw": "Shavian",
	"Shrd": "Sharada", "Sidd": "Siddham", "Sind": "Khudawadi", "Sinh": "Sinhala",
	"Sogd": "Sogdian", "Sogo": "Old_Sogdian", "Sora": "Sora_Sompeng", "Soyo": "Soyombo",
	"Sund": "Sundanese", "Sylo": "Syloti_Nagri", "Syrc": "Syriac", "Tagb": "Tagbanwa",
	"Takr": "Takri", "Tale": "Tai_Le", "Talu": "New_Tai_Lue", "Taml": "Tamil",
	"Tang": "Tangut", "Tavt": "Tai_Viet", "Telu": "Telugu", "Tfng": "Tifinagh",
	"Tglg": "Tagalog", "Thaa": "Thaana", "Thai": "Thai", "Tibt": "Tibetan",
	"Tirh": "Tirhuta", "Tnsa": "Tangsa", "Toto": "Toto", "Ugar": "Ugaritic",
	"Vaii": "Vai", "Vith": "Vithkuqi", "Wara": "Warang_Citi", "Wcho": "Wancho",
	"Xpeo": "Old_Persian", "Xsux": "Cuneiform", "Yezi": "Yezidi", "Yiii": "Yi",
	"Zanb": "Zanabazar_Square", "Zinh": "Inherited", "Qaai": "Inherited", "Zyyy": "Common",
	"Zzzz": "Unknown",
}

// newerScripts are scripts of Unicode releases after Go's tables (16.0 and
// 17.0), short and long names: valid for a newer validator, unknown here.
var newerScripts = map[string]bool{
	"Gara": true, "Garay": true, "Gukh": true, "Gurung_Khema": true, "Krai": true, "Kirat_Rai": true,
	"Onao": true, "Ol_Onal": true, "Sunu": true, "Sunuwar": true, "Todr": true, "Todhri": true,
	"Tutg": true, "Tulu_Tigalari": true, "Berf": true, "Beria_Erfe": true, "Chis": true, "Chisoi": true,
	"Sidt": true, "Sidetic": true, "Tayo": true, "Tai_Yo": true, "Tols": true, "Tolong_Siki": true,
}

// scriptLong is the long name of a script value (short or long), "" when
// it names no script of these tables.
func scriptLong(name string) string {
	if long, ok := scriptAliases[name]; ok {
		return long
	}
	if _, ok := unicode.Scripts[name]; ok || name == "Katakana_Or_Hiragana" || name == "Unknown" {
		return name
	}
	return ""
}

// script is the set of a script, by its long name.
func script(long string) Set {
	return cached("sc="+long, func() Set {
		switch long {
		case "Katakana_Or_Hiragana":
			return Set{} // a value of the property that no code point has
		case "Unknown":
			var known Set
			for _, t := range unicode.Scripts {
				known = known.union(fromTable(t))
			}
			return known.complement()
		}
		return fromTable(unicode.Scripts[long])
	})
}

// binaryProperties are ECMA-262's binary properties (table-binary-unicode-
// properties), by every name it accepts, mapped to the canonical name;
// buildBinary builds those that Go's tables give exactly.
var binaryProperties = map[string]string{
	"ASCII": "ASCII", "ASCII_Hex_Digit": "ASCII_Hex_Digit", "AHex": "ASCII_Hex_Digit",
	"Alphabetic": "Alphabetic", "Alpha": "Alphabetic", "Any": "Any", "Assigned": "Assigned",
	"Bidi_Control": "Bidi_Control", "Bidi_C": "Bidi_Control", "Bidi_Mirrored": "Bidi_Mirrored", "Bidi_M": "Bidi_Mirrored",
	"Case_Ignorable": "Case_Ignorable", "CI": "Case_Ignorable", "Cased": "Cased",
	"Changes_When_Casefolded": "Changes_When_Casefolded", "CWCF": "Changes_When_Casefolded",
	"Changes_When_Casemapped": "Changes_When_Casemapped", "CWCM": "Changes_When_Casemapped",
	"Changes_When_Lowercased": "Changes_When_Lowercased", "CWL": "Changes_When_Lowercased",
	"Changes_When_NFKC_Casefolded": "Changes_When_NFKC_Casefolded", "CWKCF": "Changes_When_NFKC_Casefolded",
	"Changes_When_Titlecased": "Changes_When_Titlecased", "CWT": "Changes_When_Titlecased",
	"Changes_When_Uppercased": "Changes_When_Uppercased", "CWU": "Changes_When_Uppercased",
	"Dash": "Dash", "Default_Ignorable_Code_Point": "Default_Ignorable_Code_Point", "DI": "Default_Ignorable_Code_Point",
	"Deprecated": "Deprecated", "Dep": "Deprecated", "Diacritic": "Diacritic", "Dia": "Diacritic",
	"Emoji": "Emoji", "Emoji_Component": "Emoji_Component", "EComp": "Emoji_Component",
	"Emoji_Modifier": "Emoji_Modifier", "EMod": "Emoji_Modifier",
	"Emoji_Modifier_Base": "Emoji_Modifier_Base", "EBase": "Emoji_Modifier_Base",
	"Emoji_Presentation": "Emoji_Presentation", "EPres": "Emoji_Presentation",
	"Extended_Pictographic": "Extended_Pictographic", "ExtPict": "Extended_Pictographic",
	"Extender": "Extender", "Ext": "Extender", "Grapheme_Base": "Grapheme_Base", "Gr_Base": "Grapheme_Base",
	"Grapheme_Extend": "Grapheme_Extend", "Gr_Ext": "Grapheme_Extend", "Hex_Digit": "Hex_Digit", "Hex": "Hex_Digit",
	"IDS_Binary_Operator": "IDS_Binary_Operator", "IDSB": "IDS_Binary_Operator",
	"IDS_Trinary_Operator": "IDS_Trinary_Operator", "IDST": "IDS_Trinary_Operator",
	"ID_Continue": "ID_Continue", "IDC": "ID_Continue", "ID_Start": "ID_Start", "IDS": "ID_Start",
	"Ideographic": "Ideographic", "Ideo": "Ideographic", "Join_Control": "Join_Control", "Join_C": "Join_Control",
	"Logical_Order_Exception": "Logical_Order_Exception", "LOE": "Logical_Order_Exception",
	"Lowercase": "Lowercase", "Lower": "Lowercase", "Math": "Math",
	"Noncharacter_Code_Point": "Noncharacter_Code_Point", "NChar": "Noncharacter_Code_Point",
	"Pattern_Syntax": "Pattern_Syntax", "Pat_Syn": "Pattern_Syntax",
	"Pattern_White_Space": "Pattern_White_Space", "Pat_WS": "Pattern_White_Space",
	"Quotation_Mark": "Quotation_Mark", "QMark": "Quotation_Mark", "Radical": "Radical",
	"Regional_Indicator": "Regional_Indicator", "RI": "Regional_Indicator",
	"Sentence_Terminal": "Sentence_Terminal", "STerm": "Sentence_Terminal",
	"Soft_Dotted": "Soft_Dotted", "SD": "Soft_Dotted", "Terminal_Punctuation": "Terminal_Punctuation", "Term": "Terminal_Punctuation",
	"Unified_Ideograph": "Unified_Ideograph", "UIdeo": "Unified_Ideograph", "Uppercase": "Uppercase", "Upper": "Uppercase",
	"Variation_Selector": "Variation_Selector", "VS": "Variation_Selector", "White_Space": "White_Space", "space": "White_Space",
	"XID_Continue": "XID_Continue", "XIDC": "XID_Continue", "XID_Start": "XID_Start", "XIDS": "XID_Start",
}

// derived builds the binary properties Unicode derives from others
// (DerivedCoreProperties.txt gives each formula), as sums and differences
// of Go tables; ok is false for the others.
func derived(name string) (s Set, ok bool) {
	switch name {
	case "ASCII":
		return NewSet(Range{0, 0x7F}), true
	case "Any":
		return anySet, true
	case "Assigned":
		return category("Cn").complement(), true
	case "Alphabetic": // Lu + Ll + Lt + Lm + Lo + Nl + Other_Alphabetic
		return category("L").union(category("Nl")).union(property("Other_Alphabetic")), true
	case "Lowercase": // Ll + Other_Lowercase
		return category("Ll").union(property("Other_Lowercase")), true
	case "Uppercase": // Lu + Other_Uppercase
		return category("Lu").union(property("Other_Uppercase")), true
	case "Cased": // Lowercase + Uppercase + Lt
		return binary("Lowercase").union(binary("Uppercase")).union(category("Lt")), true
	case "Math": // Sm + Other_Math
		return category("Sm").union(property("Other_Math")), true
	case "ID_Start": // L + Nl + Other_ID_Start - Pattern_Syntax - Pattern_White_Space
		return category("L").union(category("Nl")).union(property("Other_ID_Start")).
			minus(property("Pattern_Syntax")).minus(property("Pattern_White_Space")), true
	case "ID_Continue": // ID_Start + Mn + Mc + Nd + Pc + Other_ID_Continue - Pattern_Syntax - Pattern_White_Space
		return binary("ID_Start").union(category("Mn")).union(category("Mc")).union(category("Nd")).
			union(category("Pc")).union(property("Other_ID_Continue")).
			minus(property("Pattern_Syntax")).minus(property("Pattern_White_Space")), true
	case "Grapheme_Extend": // Me + Mn + Other_Grapheme_Extend
		return category("Me").union(category("Mn")).union(property("Other_Grapheme_Extend")), true
	case "Grapheme_Base": // all - Cc - Cf - Cs - Co - Cn - Zl - Zp - Grapheme_Extend
		s := anySet
		for _, c := range []string{"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"} {
			s = s.minus(category(c))
		}
		return s.minus(binary("Grapheme_Extend")), true
	}
	return Set{}, false
}

// property is one of Go's unicode.Properties tables.
func property(name string) Set {
	return cached("prop="+name, func() Set { return fromTable(unicode.Properties[name]) })
}

// binaryOK reports whether Go's tables give a binary property exactly.
func binaryOK(canonical string) bool {
	switch canonical {
	case "ASCII", "Any", "Assigned", "Alphabetic", "Lowercase", "Uppercase", "Cased", "Math",
		"ID_Start", "ID_Continue", "Grapheme_Extend", "Grapheme_Base":
		return true
	}
	_, ok := unicode.Properties[canonical]
	return ok
}

// binary is the set of a binary property, by its canonical name.
func binary(canonical string) Set {
	return cached("bin="+canonical, func() Set {
		if s, ok := derived(canonical); ok {
			return s
		}
		return property(canonical)
	})
}
