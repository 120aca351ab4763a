package runrecord

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"
)

// BenchmarkLogEntry is what recording costs per resource instance that
// an apply creates, on the apply's goroutines: the plan's diff and entry,
// the start, and the entry filled from the new object at the end. The
// budget (website/docs/runs.md: within 5% of an apply of 2,000
// terraform_data) is about 30µs.
func BenchmarkLogEntry(b *testing.B) {
	w, err := CreateLog(b.TempDir(), Run{ID: "bench", Outcome: RunRunning})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	ty := cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.DynamicPseudoType, "output": cty.DynamicPseudoType, "triggers_replace": cty.DynamicPseudoType})
	before := cty.NullVal(ty)
	after := cty.ObjectVal(map[string]cty.Value{"id": cty.UnknownVal(cty.String), "input": cty.StringVal("start"), "output": cty.UnknownVal(cty.DynamicPseudoType), "triggers_replace": cty.NullVal(cty.DynamicPseudoType)})
	attrs := []byte(`{"id":"2b9d7a54-5d6f-0bd6-2e4c-5e4e0b2e1a1f","input":{"value":"start","type":"string"},"output":{"value":"start","type":"string"},"triggers_replace":null}`)
	secrets := Secrets{}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		secrets.Add(before)
		secrets.Add(after)
		e := Entry{RunID: "bench", Seq: i, Kind: KindChange, Address: "terraform_data.r1234", Type: "terraform_data", Provider: `provider["terraform.io/builtin/terraform"]`,
			Action: "create", Outcome: Unprocessed}
		e.Changes = Diff(before, after, nil, secrets)
		w.PutEntry(e)
		e.Started = time.Now()
		w.PutStart(e)
		e.Outcome, e.Ended = Updated, time.Now()
		if NeedsFill(e.Changes) {
			FillAfter(e.Changes, attrs, nil, secrets)
		}
		w.PutEntry(e)
	}
	b.StopTimer()
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	_ = json.Valid
}
