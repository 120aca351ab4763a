package configs

import (
	"fmt"
	"strings"
	"testing"
)

// chainSource is the configuration `go run ./internal/bench` generates: n
// terraform_data resources in chains of 10.
func chainSource(n int) []byte {
	var b strings.Builder
	for i := 0; i < n; i++ {
		prev := `"start"`
		if i%10 != 0 {
			prev = fmt.Sprintf("terraform_data.r%d.output", i-1)
		}
		fmt.Fprintf(&b, "resource \"terraform_data\" \"r%d\" {\n  input = %s\n}\n", i, prev)
	}
	return []byte(b.String())
}

// BenchmarkLoadChain loads the module of a file of 10,000 resources.
func BenchmarkLoadChain(b *testing.B) {
	src := chainSource(10000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		p := NewParser()
		if _, diags := p.LoadModuleFromSources(".", map[string][]byte{"main.tf": src}); diags.HasErrors() {
			b.Fatal(diags.Error())
		}
	}
}
