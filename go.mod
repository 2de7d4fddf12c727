module github.com/schema2gbnf/schema2gbnf

go 1.26.0

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/dlclark/regexp2/v2 v2.13.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/stretchr/testify v1.12.1
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/tools v0.52.0
)

require golang.org/x/text v0.14.0 // indirect
