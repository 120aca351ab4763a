package contract

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReportOrdersAndDeduplicates(t *testing.T) {
	a1 := Violation{Provider: "registry.terraform.io/x/p", Address: "p_t.a", Type: "p_t", Rule: ApplyResultConsistent, Path: ".b", Detail: "was 1, but now 2"}
	a2 := Violation{Provider: "registry.terraform.io/x/p", Address: "p_t.a", Type: "p_t", Rule: PlanValid, Path: ".z", Detail: "d"}
	b := Violation{Provider: "example.com/y/q", Address: "q_t.b", Type: "q_t", Rule: ReadAfterApply, Detail: "the object was not found"}
	var r Report
	var wg sync.WaitGroup
	for _, v := range []Violation{a1, a2, b, a1, a2} {
		wg.Add(1)
		go func() { defer wg.Done(); r.Add(v) }()
	}
	wg.Wait()
	if diff := cmp.Diff([]Violation{b, a2, a1}, r.Violations()); diff != "" {
		t.Errorf("wrong result (-want +got)\n%s", diff)
	}
	want := "example.com/y/q: 1 tolerated contract violation in q_t.b:\n" +
		"  - (object): the object was not found (reading the object after apply must return the applied object)\n" +
		"\n" +
		"x/p: 2 tolerated contract violations in p_t.a:\n" +
		"  - .z: d (the planned value must keep the configured value)\n" +
		"  - .b: was 1, but now 2 (the new state must keep every value the final plan knew)\n"
	if diff := cmp.Diff(want, Summary(r.Take(), 0)); diff != "" {
		t.Errorf("wrong summary (-want +got)\n%s", diff)
	}
	if got := r.Violations(); len(got) != 0 {
		t.Errorf("Take left %v", got)
	}
	r.Add(a1, a2, b)
	want = "example.com/y/q: 1 tolerated contract violation in q_t.b:\n" +
		"  - (object): the object was not found (reading the object after apply must return the applied object)\n" +
		"\n" +
		"x/p: 2 tolerated contract violations in p_t.a:\n" +
		"  - .z: d (the planned value must keep the configured value)\n" +
		"\n... and 1 more; the -json output lists them all.\n"
	if diff := cmp.Diff(want, Summary(r.Take(), 2)); diff != "" {
		t.Errorf("wrong limited summary (-want +got)\n%s", diff)
	}
	var nilReport *Report
	nilReport.Add(a1)
	if nilReport.Take() != nil {
		t.Error("a nil report returned violations")
	}
}

func TestEnvSwitches(t *testing.T) {
	tests := map[string]bool{"": false, "0": false, "false": false, " FALSE ": false, "1": true, "true": true, "yes": true}
	for value, want := range tests {
		t.Run(value, func(t *testing.T) {
			getenv := func(name string) string {
				if name == "STRATA_STRICT" || name == "STRATA_VERIFY_READ" {
					return value
				}
				return ""
			}
			if got := StrictFromEnv(getenv); got != want {
				t.Errorf("StrictFromEnv(%q) = %v", value, got)
			}
			if got := VerifyReadsFromEnv(getenv); got != want {
				t.Errorf("VerifyReadsFromEnv(%q) = %v", value, got)
			}
		})
	}
}
