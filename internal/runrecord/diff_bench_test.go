package runrecord

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// BenchmarkDiffCreate is the plan-time diff of one terraform_data create.
func BenchmarkDiffCreate(b *testing.B) {
	ty := cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.DynamicPseudoType, "output": cty.DynamicPseudoType, "triggers_replace": cty.DynamicPseudoType})
	before := cty.NullVal(ty)
	after := cty.ObjectVal(map[string]cty.Value{"id": cty.UnknownVal(cty.String), "input": cty.StringVal("start"), "output": cty.UnknownVal(cty.DynamicPseudoType), "triggers_replace": cty.NullVal(cty.DynamicPseudoType)})
	secrets := Secrets{}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		secrets.Add(before)
		secrets.Add(after)
		_ = Diff(before, after, nil, secrets)
	}
}
