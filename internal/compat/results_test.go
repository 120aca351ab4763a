package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseTestJSON(t *testing.T) {
	tests := map[string]struct {
		input       string
		outcomes    map[string]Outcome
		buildFailed bool
	}{
		"top-level tests and subtests": {
			input: `{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"run","Package":"p","Test":"TestA/sub-1"}
{"Action":"output","Package":"p","Test":"TestA/sub-1","Output":"    a_test.go:9: boom\n"}
{"Action":"fail","Package":"p","Test":"TestA/sub-1"}
{"Action":"fail","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p","Test":"TestB/x"}
{"Action":"pass","Package":"p","Test":"TestB"}
{"Action":"skip","Package":"p","Test":"TestC"}
{"Action":"fail","Package":"p"}
`,
			outcomes: map[string]Outcome{"TestA": Fail, "TestB": Pass, "TestC": Skip},
		},
		"a package that does not compile": {
			input: `# p [p.test]
./a_test.go:3:1: syntax error
{"Action":"output","Package":"p","Output":"FAIL\tp [build failed]\n"}
{"Action":"fail","Package":"p"}
`,
			outcomes:    map[string]Outcome{},
			buildFailed: true,
		},
		"a panic outside any test": {
			input: `{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Output":"panic: in TestMain\n"}
{"Action":"fail","Package":"p"}
`,
			outcomes:    map[string]Outcome{"TestA": Pass},
			buildFailed: true,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := ParseTestJSON(strings.NewReader(tc.input))
			if diff := cmp.Diff(tc.outcomes, got.Outcomes); diff != "" {
				t.Errorf("wrong outcomes (-want +got)\n%s", diff)
			}
			if got.BuildFailed != tc.buildFailed {
				t.Errorf("BuildFailed = %v, want %v", got.BuildFailed, tc.buildFailed)
			}
		})
	}
}

func TestRegressionsAndExcerpt(t *testing.T) {
	base := ParseTestJSON(strings.NewReader(`{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p","Test":"TestB"}
{"Action":"fail","Package":"p","Test":"TestC"}
{"Action":"pass","Package":"p","Test":"TestD"}
`))
	got := ParseTestJSON(strings.NewReader(`{"Action":"output","Package":"p","Test":"TestB","Output":"=== RUN   TestB\n"}
{"Action":"output","Package":"p","Test":"TestB/one","Output":"    b_test.go:4: first\n"}
{"Action":"output","Package":"p","Test":"TestB","Output":"    b_test.go:5: second\n"}
{"Action":"fail","Package":"p","Test":"TestB"}
{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p","Test":"TestC"}
{"Action":"skip","Package":"p","Test":"TestD"}
`))
	if diff := cmp.Diff([]string{"TestB", "TestD"}, got.Regressions(base)); diff != "" {
		t.Errorf("wrong regressions (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]string{"    b_test.go:4: first"}, got.FailureExcerpt("TestB", 1)); diff != "" {
		t.Errorf("wrong excerpt (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]string{"TestC"}, base.Failed()); diff != "" {
		t.Errorf("wrong failures of base (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]string{"TestB"}, got.Failed()); diff != "" {
		t.Errorf("wrong failures (-want +got)\n%s", diff)
	}
	pass, fail, skip := got.Counts()
	if pass != 2 || fail != 1 || skip != 1 {
		t.Errorf("Counts() = %d, %d, %d; want 2, 1, 1", pass, fail, skip)
	}
}
