package watch

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func TestScheduleIntervalFor(t *testing.T) {
	s := Schedule{Interval: time.Minute, Rules: []Rule{
		{Type: "aws_instance", Interval: 10 * time.Second},
		{Address: "aws_instance.web", Interval: 5 * time.Second},
		{Address: "module.a.aws_s3_bucket.b[\"x\"]", Interval: time.Hour},
	}}
	tests := map[string]struct {
		addr, typ string
		want      time.Duration
	}{
		"default":                  {"local_file.a", "local_file", time.Minute},
		"type rule":                {"aws_instance.db", "aws_instance", 10 * time.Second},
		"address wins over type":   {"aws_instance.web", "aws_instance", 5 * time.Second},
		"resource covers keys":     {"aws_instance.web[2]", "aws_instance", 5 * time.Second},
		"prefix is not a match":    {"aws_instance.webs", "aws_instance", 10 * time.Second},
		"exact instance in module": {"module.a.aws_s3_bucket.b[\"x\"]", "aws_s3_bucket", time.Hour},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := s.IntervalFor(tc.addr, tc.typ); got != tc.want {
				t.Errorf("IntervalFor(%s) = %s, want %s", tc.addr, got, tc.want)
			}
		})
	}
}

// TestSchedulerDue: new instances are due at once; refreshed ones when
// their own interval has passed; the window batches those nearly due.
func TestSchedulerDue(t *testing.T) {
	s := NewScheduler(Schedule{Interval: time.Minute, Rules: []Rule{{Type: "fast", Interval: 10 * time.Second}}}, 1)
	s.Sync(map[string]string{"slow.a": "slow", "fast.b": "fast"}, t0)
	if diff := cmp.Diff([]string{"fast.b", "slow.a"}, s.Due(t0, 0)); diff != "" {
		t.Fatalf("new instances not all due (-want +got)\n%s", diff)
	}
	s.Refreshed([]string{"fast.b", "slow.a"}, t0)
	if got := s.Due(t0.Add(5*time.Second), 0); len(got) != 0 {
		t.Fatalf("due too early: %v", got)
	}
	if diff := cmp.Diff([]string{"fast.b"}, s.Due(t0.Add(10*time.Second), 0)); diff != "" {
		t.Fatalf("(-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]string{"fast.b", "slow.a"}, s.Due(t0.Add(55*time.Second), 5*time.Second)); diff != "" {
		t.Fatalf("window does not batch (-want +got)\n%s", diff)
	}
	next, ok := s.Next()
	if !ok || !next.Equal(t0.Add(10*time.Second)) {
		t.Fatalf("Next() = %s, %v", next, ok)
	}
	// Instances gone from the state are forgotten.
	s.Sync(map[string]string{"fast.b": "fast"}, t0)
	if diff := cmp.Diff([]string{"fast.b"}, s.All(t0)); diff != "" {
		t.Fatalf("(-want +got)\n%s", diff)
	}
}

// TestSchedulerJitter keeps each next refresh within ±Jitter of the
// interval, and spreads them.
func TestSchedulerJitter(t *testing.T) {
	s := NewScheduler(Schedule{Interval: 100 * time.Second, Jitter: 0.2}, 7)
	known := map[string]string{}
	var names []string
	for i := 0; i < 50; i++ {
		n := "t.r" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		known[n] = "t"
		names = append(names, n)
	}
	s.Sync(known, t0)
	s.Refreshed(names, t0)
	distinct := map[time.Time]bool{}
	for _, in := range s.insts {
		d := in.next.Sub(t0)
		if d < 80*time.Second || d > 120*time.Second {
			t.Errorf("next refresh after %s, outside 100s ± 20%%", d)
		}
		distinct[in.next] = true
	}
	if len(distinct) < 25 {
		t.Errorf("only %d distinct due times for 50 instances: not spread", len(distinct))
	}
}

// TestSchedulerBackoff doubles the quarantine with each consecutive
// failure up to the maximum, keeps failures of instances not in the state,
// and clears them on success.
func TestSchedulerBackoff(t *testing.T) {
	s := NewScheduler(Schedule{Interval: time.Second, BackoffBase: time.Second, BackoffMax: 8 * time.Second}, 1)
	s.Sync(map[string]string{"x.ok": "x"}, t0)
	var got []time.Duration
	now := t0
	for i := 0; i < 6; i++ {
		d := s.Failed("x.bad", "x", "boom", now)
		got = append(got, d)
		if diff := cmp.Diff([]string{"x.bad"}, s.Quarantined(now)); diff != "" {
			t.Fatalf("not quarantined (-want +got)\n%s", diff)
		}
		if due := s.Due(now, 0); len(due) != 1 || due[0] != "x.ok" {
			t.Fatalf("due while quarantined: %v", due)
		}
		// The instance is never in the state (its create fails): the
		// back-off must keep growing all the same.
		s.Sync(map[string]string{"x.ok": "x"}, now)
		now = now.Add(d)
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second, 8 * time.Second}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("wrong back-off (-want +got)\n%s", diff)
	}
	if len(s.Quarantined(now)) != 0 {
		t.Fatal("still quarantined after the back-off")
	}
	if r := s.QuarantineReport(now.Add(-time.Second)); len(r) != 1 || r[0].Failures != 6 || r[0].Error != "boom" {
		t.Fatalf("wrong report %+v", r)
	}
	s.Succeeded("x.bad")
	if d := s.Failed("x.bad", "x", "again", now); d != time.Second {
		t.Fatalf("back-off after a success = %s, want it to start again at 1s", d)
	}
}

func TestParseConfig(t *testing.T) {
	src := `
interval    = "2m"
jitter      = 0.2
backoff_max = "1h"
resource_type "local_file" { interval = "30s" }
resource "module.a.local_file.b" { interval = "5s" }
refresh_concurrency = 3
provider "hashicorp/aws" { refresh_concurrency = 1 }
provider "example.com/acme/thing" { refresh_concurrency = 8 }
`
	cfg, diags := ParseConfig([]byte(src), "w.hcl")
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if cfg.Interval != 2*time.Minute || *cfg.Jitter != 0.2 || cfg.BackoffMax != time.Hour {
		t.Fatalf("wrong settings %+v", cfg)
	}
	want := []Rule{{Address: "module.a.local_file.b", Interval: 5 * time.Second}, {Type: "local_file", Interval: 30 * time.Second}}
	if diff := cmp.Diff(want, cfg.Rules); diff != "" {
		t.Fatalf("wrong rules (-want +got)\n%s", diff)
	}
	wantLimits := RefreshLimits{Default: 3, ByProvider: map[string]int{"registry.terraform.io/hashicorp/aws": 1, "example.com/acme/thing": 8}}
	if diff := cmp.Diff(wantLimits, cfg.RefreshLimits); diff != "" {
		t.Fatalf("wrong refresh limits (-want +got)\n%s", diff)
	}
	for name, bad := range map[string]string{
		"bad duration":         `interval = "often"`,
		"bad jitter":           `jitter = 2`,
		"bad address":          `resource "not an address" { interval = "1s" }`,
		"unknown":              `intervals = "1s"`,
		"zero concurrency":     `refresh_concurrency = 0`,
		"provider concurrency": `provider "hashicorp/aws" { refresh_concurrency = -1 }`,
		"provider source":      `provider "a/b/c/d" { refresh_concurrency = 1 }`,
	} {
		if _, diags := ParseConfig([]byte(bad), "w.hcl"); !diags.HasErrors() {
			t.Errorf("%s: no error for %s", name, bad)
		}
	}
}

// TestSchedulerProviderBackoff: a backed-off provider's instances are not
// due (nor in a full refresh) until its back-off ends, which doubles with
// each failure; other providers' instances are unaffected; Next waits for
// the back-off rather than naming an instance that cannot be refreshed.
func TestSchedulerProviderBackoff(t *testing.T) {
	s := NewScheduler(Schedule{Interval: time.Minute, BackoffBase: time.Minute, BackoffMax: 4 * time.Minute}, 1)
	s.Sync(map[string]string{"aws_x.a": "aws_x", "aws_x.b": "aws_x", "local_file.c": "local_file"}, t0)
	s.SetProviders(map[string]string{"aws_x.a": "aws", "aws_x.b": "aws", "local_file.c": "local"})
	var got []time.Duration
	now := t0
	for i := 0; i < 4; i++ {
		d, n := s.ProviderFailed("aws", "Rate exceeded", now)
		if n != i+1 {
			t.Fatalf("failure %d counted as %d", i+1, n)
		}
		got = append(got, d)
		if diff := cmp.Diff([]string{"local_file.c"}, s.Due(now, 0)); diff != "" {
			t.Fatalf("due while the provider is backed off (-want +got)\n%s", diff)
		}
		if diff := cmp.Diff([]string{"local_file.c"}, s.All(now)); diff != "" {
			t.Fatalf("in a full refresh while the provider is backed off (-want +got)\n%s", diff)
		}
		if len(s.Quarantined(now)) != 0 {
			t.Fatal("a provider back-off quarantined instances")
		}
		now = now.Add(d)
	}
	if diff := cmp.Diff([]time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 4 * time.Minute}, got); diff != "" {
		t.Fatalf("wrong back-off (-want +got)\n%s", diff)
	}
	s.Refreshed([]string{"local_file.c"}, now.Add(-time.Second))
	d, _ := s.ProviderFailed("aws", "Rate exceeded", now)
	if next, ok := s.Next(); !ok || !next.Equal(now.Add(time.Minute-time.Second)) {
		t.Fatalf("Next() = %s, want local_file.c's next refresh", next)
	}
	s.Refreshed([]string{"local_file.c"}, now.Add(time.Hour))
	if next, _ := s.Next(); !next.Equal(now.Add(d)) {
		t.Fatalf("Next() = %s, want the end of the provider's back-off %s", next, now.Add(d))
	}
	if r := s.ProviderReport(now); len(r) != 1 || r[0].Provider != "aws" || r[0].Failures != 5 || r[0].Error != "Rate exceeded" {
		t.Fatalf("wrong report %+v", r)
	}
	if diff := cmp.Diff([]string{"aws_x.a", "aws_x.b"}, s.Due(now.Add(d), 0)); diff != "" {
		t.Fatalf("not due after the back-off (-want +got)\n%s", diff)
	}
	s.ProviderSucceeded("aws")
	if d, _ := s.ProviderFailed("aws", "again", now); d != time.Minute {
		t.Fatalf("back-off after a success = %s, want it to start again", d)
	}
}
