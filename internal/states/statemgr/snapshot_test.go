package statemgr

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
)

func TestEncodeSnapshot(t *testing.T) {
	withOutput := func(serial uint64) *states.State {
		s := states.New()
		s.Lineage, s.Serial, s.TerraformVersion = "l", serial, "1.0.0"
		s.Outputs["o"] = &states.OutputValue{Value: cty.StringVal("v")}
		return s
	}
	prev, err := statefile.Write(withOutput(4))
	if err != nil {
		t.Fatal(err)
	}
	// The same snapshot as another tool or a text editor lays it out, and
	// as an older version recorded it.
	var relaid bytes.Buffer
	if err := json.Indent(&relaid, bytes.TrimSpace(prev), "", "    "); err != nil {
		t.Fatal(err)
	}
	olderVersion := withOutput(4)
	olderVersion.TerraformVersion = "0.9.0"
	fromOlder, err := statefile.Write(olderVersion)
	if err != nil {
		t.Fatal(err)
	}
	// ...and with its keys sorted, as a tool decoding it into a map
	// writes it.
	var m map[string]any
	if err := json.Unmarshal(prev, &m); err != nil {
		t.Fatal(err)
	}
	sorted, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	changedOutput := func() *states.State {
		s := withOutput(4)
		s.Outputs["o"] = &states.OutputValue{Value: cty.StringVal("w")}
		return s
	}
	otherLineage := withOutput(4)
	otherLineage.Lineage = "other"
	checksOnly := states.New()
	checksOnly.CheckResults = []byte(`[]`)

	tests := []struct {
		name       string
		s          *states.State
		prev       []byte
		serial     uint64
		stored     bool
		wantWrite  bool
		wantSerial uint64
	}{
		{"identical to the stored snapshot", withOutput(4), prev, 4, true, false, 4},
		{"older serial but same content", withOutput(2), prev, 4, true, false, 4},
		{"changed", withOutput(4), nil, 4, true, true, 5},
		{"changed output", changedOutput(), prev, 4, true, true, 5},
		{"another lineage", otherLineage, prev, 4, true, true, 5},
		{"same content laid out otherwise", withOutput(4), relaid.Bytes(), 4, true, true, 4},
		{"same content from an older version", withOutput(4), fromOlder, 4, true, true, 4},
		{"changed, laid out otherwise", changedOutput(), relaid.Bytes(), 4, true, true, 5},
		{"same content, keys sorted", withOutput(4), sorted, 4, true, true, 4},
		{"changed, keys sorted", changedOutput(), sorted, 4, true, true, 5},
		{"empty with nothing stored", states.New(), nil, 0, false, false, 0},
		{"empty over a stored state", states.New(), nil, 3, true, true, 4},
		{"only check results, nothing stored", checksOnly, nil, 0, false, true, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data, err := EncodeSnapshot(tc.s, "1.0.0", tc.prev, tc.serial, tc.stored)
			if err != nil {
				t.Fatal(err)
			}
			if (data != nil) != tc.wantWrite {
				t.Fatalf("wrote %v, want %v", data != nil, tc.wantWrite)
			}
			if tc.s.Serial != tc.wantSerial {
				t.Errorf("serial %d, want %d", tc.s.Serial, tc.wantSerial)
			}
			if tc.s.Lineage == "" {
				t.Error("no lineage given")
			}
			if data == nil {
				return
			}
			got, err := statefile.Read(data)
			if err != nil {
				t.Fatal(err)
			}
			if got.Serial != tc.wantSerial || got.TerraformVersion != "1.0.0" {
				t.Errorf("stored serial %d version %q", got.Serial, got.TerraformVersion)
			}
		})
	}
}

func TestSameSnapshotText(t *testing.T) {
	const base = `{"version": 4, "terraform_version": "1.11.4", "serial": 2, "outputs": {"o": {"value": "a b\"c", "type": "string"}}}`
	if !json.Valid([]byte(base)) {
		t.Fatal("the base document is not JSON")
	}
	tests := map[string]struct {
		other string
		want  bool
	}{
		"identical":                 {base, true},
		"other layout":              {"{\n    \"version\":4,\"terraform_version\":\"1.11.4\",\n\t\"serial\": 2,\"outputs\":{\"o\":{\"value\":\"a b\\\"c\",\"type\":\"string\"}}}\n", true},
		"other version":             {strings.Replace(base, "1.11.4", "1.5.0", 1), true},
		"space inside a string":     {strings.Replace(base, "a b", "ab", 1), false},
		"escaped quote":             {strings.Replace(base, `b\"c`, `b"c`, 1), false},
		"other serial":              {strings.Replace(base, "2", "3", 1), false},
		"other key order":           {`{"terraform_version": "1.11.4", "version": 4, "serial": 2, "outputs": {"o": {"value": "a b\"c", "type": "string"}}}`, false},
		"truncated":                 {base[:len(base)-1], false},
		"version as a nested value": {strings.Replace(base, `"type": "string"`, `"terraform_version": "x"`, 1), false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := sameSnapshotText([]byte(base), []byte(tc.other)); got != tc.want {
				t.Errorf("sameSnapshotText = %v, want %v", got, tc.want)
			}
			if got := sameSnapshotText([]byte(tc.other), []byte(base)); got != tc.want {
				t.Errorf("sameSnapshotText, the other way round = %v, want %v", got, tc.want)
			}
		})
	}
	// A key named terraform_version below the top level is content.
	a := `{"outputs": {"terraform_version": "1"}}`
	if sameSnapshotText([]byte(a), []byte(strings.Replace(a, `"1"`, `"2"`, 1))) {
		t.Error("a nested terraform_version was ignored")
	}
}

// TestWithSerial checks that changing the serial of a written snapshot in
// place gives what writing it with that serial gives.
func TestWithSerial(t *testing.T) {
	for _, tc := range []struct{ from, to uint64 }{{4, 5}, {9, 10}, {99, 100}, {0, 1}, {12345, 12346}, {10, 9}} {
		for _, version := range []string{"1.11.4", `1.0.0-"serial": 3,`} {
			s := states.New()
			s.Lineage, s.TerraformVersion = "l\n  \"serial\": 7,", version
			s.Outputs["serial"] = &states.OutputValue{Value: cty.StringVal("v")}
			s.Serial = tc.from
			data, err := statefile.Write(s)
			if err != nil {
				t.Fatal(err)
			}
			s.Serial = tc.to
			want, err := statefile.Write(s)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := withSerial(data, tc.to)
			if !ok || !bytes.Equal(got, want) {
				t.Errorf("%d to %d, version %q: got (ok %v)\n%s\nwant\n%s", tc.from, tc.to, version, ok, got, want)
			}
		}
	}
	if _, ok := withSerial([]byte(`{"version": 4, "serial": 1}`), 2); ok {
		t.Error("withSerial accepted a snapshot not laid out as Write lays it out")
	}
}
