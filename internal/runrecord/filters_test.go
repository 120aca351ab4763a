package runrecord

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Time
		err  bool
	}{
		{"", time.Time{}, false},
		{"7d", now.Add(-7 * 24 * time.Hour), false},
		{"90m", now.Add(-90 * time.Minute), false},
		{"2026-11-01T10:00:00Z", time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC), false},
		{"2026-11-01", time.Date(2026, 11, 1, 0, 0, 0, 0, time.Local), false},
		{"yesterday", time.Time{}, true},
		{"xd", time.Time{}, true},
	} {
		got, err := ParseSince(tc.in, now)
		if (err != nil) != tc.err || !got.Equal(tc.want) {
			t.Errorf("ParseSince(%q) = %v, %v; want %v (error %v)", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestParseOutcomes(t *testing.T) {
	got, err := ParseOutcomes("failed, skipped,unknown")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Outcome{Failed, Skipped, Unknown}, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if got, err := ParseOutcomes(""); got != nil || err != nil {
		t.Errorf("empty: %v %v", got, err)
	}
	if _, err := ParseOutcomes("failed,crashed"); err == nil {
		t.Error("crashed (a run outcome) accepted as an entry outcome")
	}
}
