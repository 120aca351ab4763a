package statemgr

import (
	"path/filepath"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/states"
)

func TestWriteMigratedKeepsLineageAndSerial(t *testing.T) {
	dir := t.TempDir()
	src := states.New()
	src.Lineage, src.Serial = "11111111-2222-3333-4444-555555555555", 7
	src.Outputs["x"] = &states.OutputValue{Value: cty.StringVal("x")}

	tests := map[string]struct {
		keep       bool
		seed       bool
		wantSerial uint64
	}{
		"into an empty workspace": {keep: true, wantSerial: 7},
		"over an existing state":  {keep: false, seed: true, wantSerial: 10},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name+".tfstate")
			if tc.seed {
				other := states.New()
				other.Lineage, other.Serial = "other", 8
				other.Outputs["y"] = &states.OutputValue{Value: cty.StringVal("y")}
				if err := NewLocal(path, path, "-", "1.11.4").Write(other); err != nil {
					t.Fatal(err)
				}
			}
			m := NewLocal(path, path, "-", "1.11.4")
			if _, _, err := m.Read(); err != nil {
				t.Fatal(err)
			}
			if err := WriteMigrated(m, src, tc.keep); err != nil {
				t.Fatal(err)
			}
			got, _, err := NewLocal(path, path, "-", "1.11.4").Read()
			if err != nil {
				t.Fatal(err)
			}
			if got.Lineage != src.Lineage || got.Serial != tc.wantSerial {
				t.Errorf("lineage %s serial %d, want %s %d", got.Lineage, got.Serial, src.Lineage, tc.wantSerial)
			}
			if src.Serial != 7 {
				t.Error("the source state was changed")
			}
		})
	}
}
