package subsetcheck

import (
	"fmt"
	"strings"
	"testing"
)

// benchSchema is a mid-sized schema: 200 object definitions referring to
// each other, with strings, integers, arrays and enums.
func benchSchema() []byte {
	var b strings.Builder
	b.WriteString(`{"$defs":{`)
	for i := 0; i < 200; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"d%d":{"type":"object","description":"definition %d","properties":{"name":{"type":"string","minLength":1,"maxLength":64},"size":{"type":"integer","minimum":0,"maximum":1000},"tags":{"type":"array","items":{"enum":["a","b","c"]},"maxItems":8},"next":{"$ref":"#/$defs/d%d"}},"required":["name"],"additionalProperties":false}`, i, i, (i+1)%200)
	}
	b.WriteString(`},"$ref":"#/$defs/d0"}`)
	return []byte(b.String())
}

func BenchmarkRead(b *testing.B) {
	data := benchSchema()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read("bench", data, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheck(b *testing.B) {
	doc, err := Read("bench", benchSchema(), Limits{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(doc.Data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Check(doc, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
