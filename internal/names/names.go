// Package names finds a rule's index by its name, for the passes that
// resolve every reference of a grammar: gbnf's Validate and the compiler's
// prune. A Go map hashed the whole name at each of them, and was most of
// both passes' cost on compiled grammars.
package names

import (
	"hash/maphash"
	"math"
	"math/bits"
	"unsafe"

	"github.com/schema2gbnf/schema2gbnf/internal/reuse"
)

// Index numbers names in the order they are added: open addressing over a
// power-of-two array of indices, at most half full. Unlike a map it is
// reset for each grammar by clearing an array the size of that grammar,
// however large the grammars before it were, so it can live in a pool.
//
// Most references in a compiled grammar are a few nodes shared by many
// (one per helper rule), and a compiler spells every reference to a rule
// with the rule's own name string, so before hashing the whole name Lookup
// tries seen, the names met lately by the address of their bytes (a string
// with the same address and length is the same string), then guess: the
// last name added whose length and three bytes fall in the same place.
type Index struct {
	slots []int32  // 1 + the index of the name that hashes here; 0: empty
	names []string // by index
	guess [256]int32
	seen  [128]seenName
}

// seenName is a name met before, by the address of its bytes (a pointer:
// the bytes cannot be reused for another string while it is held here).
type seenName struct {
	data  *byte
	n     int32
	index int32
}

// seenSlot places a name in seen by the address of its bytes.
func seenSlot(data *byte) uint {
	a := uintptr(unsafe.Pointer(data))
	return uint(a>>4^a>>11) & 127
}

// seed randomizes the hash per process, so that no grammar can be built to
// make the names collide.
var seed = maphash.MakeSeed()

// Reset empties the index and sizes it for up to n names.
func (x *Index) Reset(n int) {
	x.Forget()
	x.slots = reuse.Zeroed(x.slots, 1<<bits.Len(uint(2*n)))
	clear(x.guess[:])
}

// Forget drops the names, so that an index kept in a pool holds none of a
// grammar's strings; Reset before the next use.
func (x *Index) Forget() {
	clear(x.names)
	x.names = x.names[:0]
	clear(x.seen[:])
}

// Len is the number of names added since Reset.
func (x *Index) Len() int { return len(x.names) }

// guessSlot places a name in guess by its length and three of its bytes.
func guessSlot(name string) uint32 {
	n := len(name)
	if n == 0 {
		return 0
	}
	h := uint32(n)*0x9E3779B1 ^ uint32(name[0])*0x85EBCA77 ^ uint32(name[n/2])*0x27D4EB2F ^ uint32(name[n-1])*0xC2B2AE3D
	return h >> 24
}

// Lookup returns the index of name, if it is there.
func (x *Index) Lookup(name string) (int32, bool) {
	data := unsafe.StringData(name)
	s := &x.seen[seenSlot(data)]
	if s.data == data && s.n == int32(len(name)) && data != nil {
		return s.index, true
	}
	i, ok := int32(-1), false
	if g := x.guess[guessSlot(name)]; g != 0 && x.names[g-1] == name {
		i, ok = g-1, true
	} else {
		i, ok = x.find(name)
	}
	if ok {
		x.see(name, i)
	}
	return i, ok
}

// see notes that name has index i.
func (x *Index) see(name string, i int32) {
	if len(name) <= math.MaxInt32 {
		data := unsafe.StringData(name)
		x.seen[seenSlot(data)] = seenName{data, int32(len(name)), i}
	}
}

// find returns the index of name, or the slot where to add it.
func (x *Index) find(name string) (int32, bool) {
	mask := uint64(len(x.slots) - 1)
	for i := maphash.String(seed, name) & mask; ; i = (i + 1) & mask {
		s := x.slots[i]
		if s == 0 {
			return int32(i), false
		}
		if x.names[s-1] == name {
			return s - 1, true
		}
	}
}

// Add returns the index of name and true when it is there; otherwise it
// gives name the next index and returns that and false. At most the n of
// the last Reset names may be added.
func (x *Index) Add(name string) (int32, bool) {
	i, ok := x.find(name)
	if ok {
		return i, true
	}
	x.names = append(x.names, name)
	x.slots[i] = int32(len(x.names))
	x.guess[guessSlot(name)] = int32(len(x.names))
	x.see(name, int32(len(x.names)-1))
	return int32(len(x.names) - 1), false
}
