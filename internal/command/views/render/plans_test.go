package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecordedPlans renders plans recorded from Terraform 1.11 and compares
// the result with what Terraform printed for them. Each
// testdata/plans/NAME.json holds the resource_changes and output_changes of
// `terraform show -json PLANFILE`; NAME.golden holds the text `terraform
// plan -no-color` printed between "Terraform will perform the following
// actions:" and "Plan:", followed by its "Changes to Outputs:" section.
func TestRecordedPlans(t *testing.T) {
	files, err := filepath.Glob("testdata/plans/*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no recorded plans")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(strings.TrimSuffix(f, ".json") + ".golden")
			if err != nil {
				t.Fatal(err)
			}
			got := renderJSONPlan(t, f)
			if got != string(want) {
				t.Errorf("rendered plan differs from Terraform's\n--- got\n%s\n--- want\n%s\n--- diff\n%s", got, want, lineDiff(string(want), got))
			}
		})
	}
}

// lineDiff lists the lines that differ between want and got.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("line " + itoa(i+1) + ":\n  want: " + quoteLine(wl) + "\n  got:  " + quoteLine(gl) + "\n")
		}
	}
	return b.String()
}

func quoteLine(s string) string { return "|" + s + "|" }

func itoa(i int) string {
	s := ""
	if i == 0 {
		return "0"
	}
	for ; i > 0; i /= 10 {
		s = string(rune('0'+i%10)) + s
	}
	return s
}
