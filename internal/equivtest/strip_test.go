package equivtest

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStrip(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		file   string
		ignore []string
		in     string
		want   string
	}{
		"apply: version message, timestamps, durations, the summary's message": {
			file: "apply.json",
			in: `[{"@message":"Terraform 1.11.4","type":"version"},
				{"@message":"a: Creating...","@timestamp":"t1","type":"apply_start"},
				{"@message":"a: Creation complete after 0s","@timestamp":"t2","hook":{"elapsed_seconds":0,"action":"create"},"type":"apply_complete"},
				{"@message":"Apply complete!","@timestamp":"t3","type":"change_summary"}]`,
			want: `[{"@message":"a: Creating...","type":"apply_start"},
				{"hook":{"action":"create"},"type":"apply_complete"},
				{"@message":"Apply complete!","type":"change_summary"}]`,
		},
		"plan: versions and timestamp": {
			file: "plan.json",
			in:   `{"terraform_version":"1.11.4","timestamp":"now","prior_state":{"terraform_version":"1.11.4","values":{}},"format_version":"1.2"}`,
			want: `{"prior_state":{"values":{}},"format_version":"1.2"}`,
		},
		"plan without a prior state": {
			file: "plan.json",
			in:   `{"terraform_version":"1.11.4","format_version":"1.2"}`,
			want: `{"format_version":"1.2"}`,
		},
		"state": {
			file: "state.json",
			in:   `{"terraform_version":"1.11.4","format_version":"1.0"}`,
			want: `{"format_version":"1.0"}`,
		},
		"spec fields: a key under every member, a list index": {
			file:   "output.json",
			ignore: []string{"*.id", "list.1"},
			in:     `{"a":{"id":1,"x":2},"b":{"id":3},"list":[1,2,3]}`,
			want:   `{"a":{"x":2},"b":{},"list":[1,3]}`,
		},
		"a path through a scalar is left alone": {
			file:   "output.json",
			ignore: []string{"a.b.c"},
			in:     `{"a":{"b":"s"}}`,
			want:   `{"a":{"b":"s"}}`,
		},
		"other files keep everything": {
			file: "other.json",
			in:   `{"terraform_version":"1.11.4"}`,
			want: `{"terraform_version":"1.11.4"}`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var in, want any
			if err := json.Unmarshal([]byte(tc.in), &in); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(tc.want), &want); err != nil {
				t.Fatal(err)
			}
			got := Strip(tc.file, Spec{IgnoreFields: map[string][]string{tc.file: tc.ignore}}, in)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("wrong result (-want +got):\n%s", d)
			}
		})
	}
}

func TestUndoDeliberate(t *testing.T) {
	t.Parallel()
	var msgs any
	if err := json.Unmarshal([]byte(`[{"type":"apply_complete"},{"type":"resource_outcome"},{"type":"change_summary"},{"type":"contract_violations"}]`), &msgs); err != nil {
		t.Fatal(err)
	}
	outs := map[string]Output{
		"plan": {Text: "strata will perform the following actions:\n\n  # a must be replaced\n  # (strata) replaced because: `x` changed\n-/+ resource\n\n" +
			"Plan: 1 to add.\n\nWarning: Provider contract violations tolerated\n\nhashicorp/local: 2 tolerated\n\nLike Terraform, strata does not stop\nmake them errors.\n\n───\n" +
			"the strata state; strata state rm a\n    strata apply \"p\"\n"},
		"apply.json": {JSON: msgs, IsJSON: true},
	}
	UndoDeliberate(outs)
	want := "Terraform will perform the following actions:\n\n  # a must be replaced\n-/+ resource\n\nPlan: 1 to add.\n\n───\n" +
		"the Terraform state; terraform state rm a\n    terraform apply \"p\"\n"
	if outs["plan"].Text != want {
		t.Errorf("plan:\n%q\nwant\n%q", outs["plan"].Text, want)
	}
	var wantJSON any
	_ = json.Unmarshal([]byte(`[{"type":"apply_complete"},{"type":"change_summary"}]`), &wantJSON)
	if d := cmp.Diff(wantJSON, outs["apply.json"].JSON); d != "" {
		t.Errorf("apply.json (-want +got):\n%s", d)
	}
}
