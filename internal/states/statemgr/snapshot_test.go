package statemgr

import (
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
		{"empty with nothing stored", states.New(), nil, 0, false, false, 0},
		{"empty over a stored state", states.New(), nil, 3, true, true, 4},
		{"only check results, nothing stored", checksOnly, nil, 0, false, true, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data, err := encodeSnapshot(tc.s, "1.0.0", tc.prev, tc.serial, tc.stored)
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
