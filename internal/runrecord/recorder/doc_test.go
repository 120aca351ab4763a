package recorder

import (
	"testing"
	"time"

	"github.com/strata-dev/strata/internal/runrecord"
)

func TestEnabledAndRetention(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for v, want := range map[string]bool{"": true, "1": true, "0": false, "OFF": false, "no": false, "false": false, "yes": true} {
		if got := Enabled(env(map[string]string{"STRATA_RUNS": v})); got != want {
			t.Errorf("STRATA_RUNS=%q: Enabled %v, want %v", v, got, want)
		}
	}
	for _, tc := range []struct {
		keep, age string
		want      runrecord.Retention
	}{
		{"", "", runrecord.DefaultRetention},
		{"5", "30d", runrecord.Retention{Keep: 5, MaxAge: 30 * 24 * time.Hour}},
		{"0", "720h", runrecord.Retention{Keep: 0, MaxAge: 720 * time.Hour}},
		{"-1", "soon", runrecord.DefaultRetention},
	} {
		got := RetentionFromEnv(env(map[string]string{"STRATA_RUNS_KEEP": tc.keep, "STRATA_RUNS_MAX_AGE": tc.age}))
		if got != tc.want {
			t.Errorf("KEEP=%q MAX_AGE=%q: %+v, want %+v", tc.keep, tc.age, got, tc.want)
		}
	}
}
