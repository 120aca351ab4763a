package statefile

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRoundTrip reads every testdata/roundtrip/NAME.in.json, writes the
// state back and compares the bytes with NAME.out.json.
//
// The terraform-*.json fixtures were written by Terraform 1.11 applying
// small configurations of terraform_data resources, so .out equals .in. The
// .out of the hand-written fixtures (deposed-private, ordering,
// legacy-fields) is what Terraform 1.11 itself writes for the .in
// (`terraform state pull`, less the extra newline pull prints); see
// testdata/roundtrip/README.md. The strata-*.json fixtures have no Terraform
// oracle and pin strata's own output.
func TestRoundTrip(t *testing.T) {
	ins, err := filepath.Glob(filepath.Join("testdata", "roundtrip", "*.in.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ins) < 5 {
		t.Fatalf("found only %d fixtures", len(ins))
	}
	sort.Strings(ins)
	for _, in := range ins {
		name := strings.TrimSuffix(filepath.Base(in), ".in.json")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(strings.TrimSuffix(in, ".in.json") + ".out.json")
			if err != nil {
				t.Fatal(err)
			}
			s, err := Read(src)
			if err != nil {
				t.Fatalf("Read: %s", err)
			}
			got, err := Write(s)
			if err != nil {
				t.Fatalf("Write: %s", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("Write(Read(in)) differs from out (-want +got):\n%s", diff)
			}

			// The output is a fixed point: reading and writing it again
			// gives the same bytes.
			s2, err := Read(got)
			if err != nil {
				t.Fatalf("Read(out): %s", err)
			}
			again, err := Write(s2)
			if err != nil {
				t.Fatalf("Write(Read(out)): %s", err)
			}
			if diff := cmp.Diff(string(got), string(again)); diff != "" {
				t.Errorf("second round trip differs (-first +second):\n%s", diff)
			}
		})
	}
}
