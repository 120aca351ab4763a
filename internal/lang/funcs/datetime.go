package funcs

import (
	"errors"
	"time"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// TimestampFunc returns the current UTC time in RFC 3339 format. Its result
// changes over time, so it is impure.
var TimestampFunc = function.New(&function.Spec{
	Description: "Returns a UTC timestamp string in RFC 3339 format.",
	Params:      []function.Parameter{},
	Type:        function.StaticReturnType(cty.String),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return cty.StringVal(time.Now().UTC().Format(time.RFC3339)), nil
	},
})

// MakePlanTimestampFunc returns the plantimestamp function, which always
// returns the given time (that of the current run) in RFC 3339 format.
func MakePlanTimestampFunc(planTime time.Time) function.Function {
	return function.New(&function.Spec{
		Description: "Returns the timestamp of the current plan, in RFC 3339 format.",
		Params:      []function.Parameter{},
		Type:        function.StaticReturnType(cty.String),
		RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
			return b.NotNull()
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			if planTime.IsZero() {
				return cty.UnknownVal(cty.String), nil
			}
			return cty.StringVal(planTime.UTC().Format(time.RFC3339)), nil
		},
	})
}

// TimeCmpFunc compares two RFC 3339 timestamps, returning -1, 0 or 1.
var TimeCmpFunc = function.New(&function.Spec{
	Description: "Compares two timestamps and returns a number that represents the ordering of the instants those timestamps represent.",
	Params: []function.Parameter{
		{Name: "timestamp_a", Type: cty.String},
		{Name: "timestamp_b", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.Number),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull().
			NumberRangeInclusive(cty.NumberIntVal(-1), cty.NumberIntVal(1))
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		a, err := parseTimestamp(args[0], 0)
		if err != nil {
			return cty.UnknownVal(cty.Number), err
		}
		b, err := parseTimestamp(args[1], 1)
		if err != nil {
			return cty.UnknownVal(cty.Number), err
		}
		return cty.NumberIntVal(int64(a.Compare(b))), nil
	},
})

// parseTimestamp parses an RFC 3339 timestamp argument, reporting problems
// as errors about argument argIdx.
func parseTimestamp(v cty.Value, argIdx int) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, v.AsString())
	if err == nil {
		return t, nil
	}
	// formatdate's RFC 3339 parser gives friendlier messages than the time
	// package ("not a valid RFC3339 timestamp: missing required time
	// introducer 'T'"), so borrow its diagnosis.
	_, ferr := stdlib.FormatDate(cty.StringVal("YYYY"), v)
	var argErr function.ArgError
	if errors.As(ferr, &argErr) {
		return time.Time{}, function.NewArgErrorf(argIdx, "%s", argErr.Error())
	}
	return time.Time{}, function.NewArgErrorf(argIdx, "not a valid RFC3339 timestamp: %s", err)
}
