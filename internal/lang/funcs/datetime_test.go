package funcs

import (
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"
)

func TestDateTimeFunctions(t *testing.T) {
	fns := Functions(testBaseDir, false)
	runExprTests(t, fns, map[string]exprTest{
		// formatdate
		"formatdate":          {Expr: `formatdate("DD MMM YYYY hh:mm ZZZ", "2018-01-02T23:12:01Z")`, Want: cty.StringVal("02 Jan 2018 23:12 UTC")},
		"formatdate offset":   {Expr: `formatdate("EEEE, DD-MMM-YY hh:mm:ss ZZZ", "2018-01-02T23:12:01-08:00")`, Want: cty.StringVal("Tuesday, 02-Jan-18 23:12:01 -0800")},
		"formatdate quoted":   {Expr: `formatdate("h:mmaa 'o''clock'", "2018-01-02T23:12:01Z")`, Want: cty.StringVal("23:12pm o'clock")},
		"formatdate short":    {Expr: `formatdate("MMM D, YYYY", "2018-01-02T23:12:01Z")`, Want: cty.StringVal("Jan 2, 2018")},
		"formatdate weekday":  {Expr: `formatdate("EEE", "2018-01-02T23:12:01Z")`, Want: cty.StringVal("Tue")},
		"formatdate ampm":     {Expr: `formatdate("hh:mm:ss AA", "2018-01-02T03:04:05+10:00")`, Want: cty.StringVal("03:04:05 AM")},
		"formatdate zones":    {Expr: `formatdate("ZZZZ ZZZZZ Z", "2018-01-02T03:04:05+10:00")`, Want: cty.StringVal("+1000 +10:00 +10:00")},
		"formatdate utc":      {Expr: `formatdate("ZZZZ ZZZZZ Z", "2018-01-02T03:04:05Z")`, Want: cty.StringVal("+0000 +00:00 Z")},
		"formatdate single":   {Expr: `formatdate("h H M D", "2018-01-02T03:04:05Z")`, Want: cty.StringVal("3 3 1 2")},
		"formatdate no T":     {Expr: `formatdate("YYYY", "2018-01-02")`, WantErr: `not a valid RFC3339 timestamp: missing required time introducer 'T'`},
		"formatdate bad verb": {Expr: `formatdate("SSS", "2018-01-02T23:12:01Z")`, WantErr: `invalid date format verb "SSS"`},

		// timeadd
		"timeadd":          {Expr: `timeadd("2017-11-22T00:00:00Z", "10m")`, Want: cty.StringVal("2017-11-22T00:10:00Z")},
		"timeadd negative": {Expr: `timeadd("2017-11-22T00:00:00Z", "-1h30m")`, Want: cty.StringVal("2017-11-21T22:30:00Z")},
		"timeadd fraction": {Expr: `timeadd("2017-11-22T00:00:00Z", "1.5h")`, Want: cty.StringVal("2017-11-22T01:30:00Z")},
		"timeadd days":     {Expr: `timeadd("2017-11-22T00:00:00Z", "1d")`, WantErr: `unknown unit "d" in duration "1d"`},

		// timecmp
		"timecmp equal":     {Expr: `timecmp("2017-11-22T00:00:00Z", "2017-11-22T01:00:00+01:00")`, Want: cty.NumberIntVal(0)},
		"timecmp after":     {Expr: `timecmp("2017-11-22T01:00:00Z", "2017-11-22T00:59:00Z")`, Want: cty.NumberIntVal(1)},
		"timecmp before":    {Expr: `timecmp("2017-11-22T00:00:00Z", "2017-11-22T00:00:01Z")`, Want: cty.NumberIntVal(-1)},
		"timecmp fractions": {Expr: `timecmp("2017-11-22T00:00:00.5Z", "2017-11-22T00:00:00Z")`, Want: cty.NumberIntVal(1)},
		"timecmp bad a":     {Expr: `timecmp("x", "2017-11-22T00:59:00Z")`, WantErr: `Invalid value for "timestamp_a" parameter: not a valid RFC3339 timestamp: cannot use "x" as year`},
		"timecmp bad b":     {Expr: `timecmp("2017-11-22T00:00:00Z", "2017-11-22")`, WantErr: `Invalid value for "timestamp_b" parameter: not a valid RFC3339 timestamp: missing required time introducer 'T'`},
	})
}

func TestTimestampFunctions(t *testing.T) {
	fns := Functions(testBaseDir, false)
	tests := map[string]struct {
		name string
	}{
		"timestamp":     {name: "timestamp"},
		"plantimestamp": {name: "plantimestamp"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			before := time.Now().UTC().Truncate(time.Second)
			v, err := fns[tc.name].Call(nil)
			if err != nil {
				t.Fatal(err)
			}
			after := time.Now().UTC()
			ts, err := time.Parse(time.RFC3339, v.AsString())
			if err != nil {
				t.Fatalf("result %q is not RFC 3339: %s", v.AsString(), err)
			}
			if ts.Location() != time.UTC {
				t.Errorf("result %q is not UTC", v.AsString())
			}
			// plantimestamp was fixed when the table was built, before
			// "before"; allow a little slack for that.
			if ts.Before(before.Add(-time.Minute)) || ts.After(after) {
				t.Errorf("result %s is not around the current time", ts)
			}
		})
	}
}

func TestPlanTimestampIsStable(t *testing.T) {
	planTime := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	fn := MakePlanTimestampFunc(planTime)
	for i := 0; i < 2; i++ {
		v, err := fn.Call(nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := v.AsString(), "2024-05-06T07:08:09Z"; got != want {
			t.Errorf("call %d: got %q, want %q", i, got, want)
		}
	}
}
