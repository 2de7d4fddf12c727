package subsetcheck

import "sync/atomic"

// Kind is the JSON type of a Value.
type Kind uint8

const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// Value is a JSON value read strictly, with object members in document order
// and the byte offset of every value, so that errors can name a line:column.
// Numbers keep their exact text: bounds beyond 64 bits and 1 == 1.0 must work.
type Value struct {
	Kind    Kind
	Bool    bool     // Kind == Bool
	id      uint32   // 1, 2, ... in reading order, unique in its Document; 0 when made by hand
	Num     string   // Kind == Number: the number's text, as written
	Str     string   // Kind == String: the decoded string
	Items   []*Value // Kind == Array
	Members []Member // Kind == Object, in document order, names unique
	Offset  int      // byte offset of the value's first byte in its document
}

// Member is one "name": value pair of an object.
type Member struct {
	Name       string
	NameOffset int // byte offset of the name's opening quote
	Value      *Value
}

// Get returns the value of the member called name, or nil.
func (v *Value) Get(name string) *Value {
	for i := range v.Members {
		if v.Members[i].Name == name {
			return v.Members[i].Value
		}
	}
	return nil
}

// Document is a schema file that has been read: its bytes, its name for
// error messages, and its root value.
type Document struct {
	Name string // file name used in messages; "<stdin>" or "schema" when unnamed
	Data []byte
	Root *Value

	lineStarts atomic.Pointer[[]int] // offsets at which lines begin, found by the first Position
	values     int                   // ids Read gave: 1 to values
}
