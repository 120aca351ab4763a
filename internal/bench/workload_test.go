package main

import (
	"fmt"
	"strings"
	"testing"
)

func TestConfigChains(t *testing.T) {
	w, err := newWorkload("data", "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		n, chain int
		starts   []int // resources that begin a chain
	}{
		{25, 10, []int{0, 10, 20}},
		{25, 0, []int{0}},
		{3, 1, []int{0, 1, 2}},
	}
	for _, tt := range tests {
		src := w.config(tt.n, tt.chain)
		if got := strings.Count(src, "resource \"terraform_data\""); got != tt.n {
			t.Errorf("n=%d chain=%d: %d resources", tt.n, tt.chain, got)
		}
		if got := strings.Count(src, `input = "start"`); got != len(tt.starts) {
			t.Errorf("n=%d chain=%d: %d chains, want %d", tt.n, tt.chain, got, len(tt.starts))
		}
		for _, s := range tt.starts {
			if s > 0 && !strings.Contains(src, fmt.Sprintf("\"r%d\" {", s)+"\n  input = \"start\"") {
				t.Errorf("n=%d chain=%d: r%d does not start a chain", tt.n, tt.chain, s)
			}
		}
	}
}

func TestParseSizes(t *testing.T) {
	if got, err := parseSizes("2000, 10000"); err != nil || len(got) != 2 || got[1] != 10000 {
		t.Errorf("parseSizes = %v, %v", got, err)
	}
	for _, bad := range []string{"", "0", "x", "10,-1"} {
		if _, err := parseSizes(bad); err == nil {
			t.Errorf("parseSizes(%q) accepted", bad)
		}
	}
}
