package render

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// jsonState is the part of `terraform show -json` (on a state) the tests
// use.
type jsonState struct {
	Resources []struct {
		Address         string          `json:"address"`
		Mode            string          `json:"mode"`
		Type            string          `json:"type"`
		Values          json.RawMessage `json:"values"`
		SensitiveValues json.RawMessage `json:"sensitive_values"`
	} `json:"resources"`
	Outputs map[string]struct {
		Sensitive bool            `json:"sensitive"`
		Value     json.RawMessage `json:"value"`
		Type      json.RawMessage `json:"type"`
	} `json:"outputs"`
}

func loadState(t *testing.T, file string) jsonState {
	t.Helper()
	buf, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonState
	if err := json.Unmarshal(buf, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// outputValue decodes a state output with its recorded type.
func outputValue(t *testing.T, value, typ json.RawMessage) cty.Value {
	t.Helper()
	ty, err := ctyjson.UnmarshalType(typ)
	if err != nil {
		t.Fatal(err)
	}
	v, err := ctyjson.Unmarshal(value, ty)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func sortedOutputNames(s jsonState) []string {
	var names []string
	for k := range s.Outputs {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// TestRecordedStates renders states recorded from Terraform 1.11 with
// StateResource and StateOutput and compares the result with what
// `terraform show -no-color` printed.
func TestRecordedStates(t *testing.T) {
	files, err := filepath.Glob("testdata/states/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded states (%v)", err)
	}
	resources, data := providerSchemas(t, "testdata/tp_schema.json")
	resources["terraform_data"] = terraformDataSchema()
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			s := loadState(t, f)
			var parts []string
			for _, r := range s.Resources {
				schema := resources[r.Type]
				if r.Mode == "data" {
					schema = data[r.Type]
				}
				v := ctyFromJSON(t, decodeRaw(t, r.Values), schema.ImpliedType())
				v = applyFlags(v, decodeRaw(t, r.SensitiveValues), markSensitive)
				parts = append(parts, Colorize(StateResource(r.Address, v, schema), true))
			}
			got := strings.Join(parts, "\n")
			if len(s.Outputs) > 0 {
				got += "\n\nOutputs:\n\n"
				for _, k := range sortedOutputNames(s) {
					o := s.Outputs[k]
					got += Colorize(StateOutput(k, outputValue(t, o.Value, o.Type), o.Sensitive), true) + "\n"
				}
			}
			want, err := os.ReadFile(strings.TrimSuffix(f, ".json") + ".golden")
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("rendered state differs from Terraform's\n--- got\n%s\n--- want\n%s\n--- diff\n%s", got, want, lineDiff(string(want), got))
			}
		})
	}
}

// TestRecordedApplyOutputs renders recorded outputs with Value and
// compares them with the "Outputs:" section Terraform printed after apply
// (which shows sensitive outputs as <sensitive>).
func TestRecordedApplyOutputs(t *testing.T) {
	files, _ := filepath.Glob("testdata/states/*.apply.golden")
	if len(files) == 0 {
		t.Fatal("no recorded apply outputs")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".apply.golden")
		t.Run(name, func(t *testing.T) {
			s := loadState(t, filepath.Join("testdata/states", name+".json"))
			var b strings.Builder
			for _, k := range sortedOutputNames(s) {
				o := s.Outputs[k]
				if o.Sensitive {
					b.WriteString(k + " = <sensitive>\n")
					continue
				}
				b.WriteString(k + " = " + Colorize(Value(outputValue(t, o.Value, o.Type), 0), true) + "\n")
			}
			want, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if got := b.String(); got != string(want) {
				t.Errorf("outputs differ from Terraform's\n--- got\n%s\n--- want\n%s\n--- diff\n%s", got, want, lineDiff(string(want), got))
			}
		})
	}
}
