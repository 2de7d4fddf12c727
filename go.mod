module github.com/schema2gbnf/schema2gbnf

go 1.26

require (
	github.com/alecthomas/participle/v2 v2.1.4 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	github.com/tidwall/gjson v1.20.2 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.3.0 // indirect
	golang.org/x/text v0.14.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
