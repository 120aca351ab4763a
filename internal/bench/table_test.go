package main

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestSizesFor(t *testing.T) {
	ns := []int{2000, 10000, 100000}
	tests := []struct {
		w    string
		max  int
		want []int
	}{
		{"data", 2000, ns},
		{"null", 2000, []int{2000}},
		{"null", 10000, []int{2000, 10000}},
		{"null", 0, ns},
		{"null", 1000, nil},
	}
	for _, tt := range tests {
		if got := sizesFor(tt.w, ns, tt.max); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("sizesFor(%s, %d) = %v, want %v", tt.w, tt.max, got, tt.want)
		}
	}
}

func TestSkipAt(t *testing.T) {
	tests := []struct {
		tool string
		n    int
		want string
	}{
		{"strata", 100000, ""},
		{"before", 100000, ""},
		{"tofu", 10000, ""},
		{"tofu", 100000, "-peer-max"},
		{"terraform", 2000, ""},
		{"terraform", 10000, "-terraform-max"},
		{"terraform", 100000, "-peer-max"},
	}
	for _, tt := range tests {
		if got := skipAt(tool{tt.tool, "/x"}, tt.n, 10000, 2000); got != tt.want {
			t.Errorf("skipAt(%s, %d) = %q, want %q", tt.tool, tt.n, got, tt.want)
		}
	}
}

func TestTableRowsAndRender(t *testing.T) {
	r := func(took, cpu float64, ownMB, peakMB int64) run {
		return run{took: secondsDuration(took), cpu: secondsDuration(cpu), ownKB: ownMB * 1024, peakKB: peakMB * 1024}
	}
	peers := []tool{{"strata", "/s"}, {"tofu", "/t"}}
	rounds := [][]result{
		{{apply: r(1, 2, 90, 90), plan: r(0.5, 0.6, 80, 200)}, {apply: r(3, 4, 190, 190), plan: r(2, 2, 220, 220)}},
		{{apply: r(3, 4, 70, 70), plan: r(0.3, 0.4, 60, 60)}, {apply: r(5, 6, 210, 210), plan: r(4, 4, 240, 240)}},
		{{apply: r(2, 3, 80, 80), plan: r(0.4, 0.5, 70, 210)}, {apply: r(4, 5, 200, 200), plan: r(3, 3, 230, 230)}},
	}
	rows := tableRows("data", 10000, peers, rounds)
	if len(rows) != 2 || rows[0].work != "apply data 10,000" || rows[1].work != "no-op plan data 10,000" {
		t.Fatalf("rows = %+v", rows)
	}
	// Each figure is its own median.
	if got := rows[0].figures["strata"]; got.took != 2*time.Second || got.cpu != 3*time.Second || got.ownKB != 80*1024 {
		t.Errorf("strata apply = %+v", got)
	}
	if got := rows[1].figures["strata"]; got.ownKB != 70*1024 || got.peakKB != 200*1024 {
		t.Errorf("strata plan = %+v", got)
	}
	// A tool that did not run a size (terraform beyond -peer-max) shows "–".
	out := renderTable(append(peers, tool{"terraform", "/tf"}), rows)
	want := strings.Join([]string{
		"| work | strata | tofu | terraform |",
		"|---|---|---|---|",
		"| apply data 10,000 | 2.00 s (CPU 3.00 s), 80 MB | 4.00 s (CPU 5.00 s), 200 MB | – |",
		"| no-op plan data 10,000 | 0.40 s (CPU 0.50 s), 70 (200) MB | 3.00 s (CPU 3.00 s), 230 MB | – |",
		"",
	}, "\n")
	if out != want {
		t.Errorf("table:\n%s\nwant:\n%s", out, want)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 2000: "2,000", 100000: "100,000", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
