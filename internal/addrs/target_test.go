package addrs

import (
	"strings"
	"testing"
)

func TestSplitModuleInstance(t *testing.T) {
	tests := map[string]struct {
		module string
		names  []string
		ok     bool
	}{
		"var.x":                          {"", []string{"var", "x"}, true},
		"module.a[0].output.o":           {"module.a[0]", []string{"output", "o"}, true},
		`module.a["k"].module.b.check.c`: {`module.a["k"].module.b`, []string{"check", "c"}, true},
		"module.a":                       {"", []string{"module", "a"}, true},
		"nope[":                          {ok: false},
	}
	for in, tc := range tests {
		mi, names, ok := SplitModuleInstance(in)
		if ok != tc.ok {
			t.Errorf("%s: ok %v, want %v", in, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if mi.String() != tc.module || strings.Join(names, ".") != strings.Join(tc.names, ".") {
			t.Errorf("%s: %q %v, want %q %v", in, mi.String(), names, tc.module, tc.names)
		}
	}
}
