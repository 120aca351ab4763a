package statemgr

import (
	"testing"
	"time"
)

// TestPersistInterval: TF_STATE_PERSIST_INTERVAL is read from the
// environment given, not the process's.
func TestPersistInterval(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		value string
		want  time.Duration
	}{
		"unset":    {"", DefaultPersistInterval},
		"seconds":  {"3", 3 * time.Second},
		"zero":     {"0", DefaultPersistInterval},
		"negative": {"-2", DefaultPersistInterval},
		"invalid":  {"soon", DefaultPersistInterval},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := PersistInterval(func(k string) string {
				if k == "TF_STATE_PERSIST_INTERVAL" {
					return tc.value
				}
				return ""
			})
			if got != tc.want {
				t.Errorf("PersistInterval = %s, want %s", got, tc.want)
			}
		})
	}
}
