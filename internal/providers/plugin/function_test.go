package plugin

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/strata-dev/strata/internal/providers"
)

// TestFunctionSignatures reads the function signatures of both test
// providers from GetProviderSchema, and from GetFunctions.
func TestFunctionSignatures(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		p := start(t, pc.binary)
		resp := p.GetProviderSchema(context.Background())
		noDiags(t, "GetProviderSchema", resp.Diagnostics)
		want := providers.FunctionDecl{
			Summary:    "Upper-case a string",
			Parameters: []providers.FunctionParam{{Name: "input", Type: cty.String}},
			ReturnType: cty.String,
		}
		if pc.version == 6 {
			// The framework adds its own descriptions.
			got := resp.Functions["upper"]
			got.Description = ""
			resp.Functions["upper"] = got
		}
		if diff := cmp.Diff(want, resp.Functions["upper"], cmp.Comparer(cty.Type.Equals)); diff != "" {
			t.Errorf("wrong upper signature (-want +got)\n%s", diff)
		}
		variadic := "repeat"
		if pc.version == 6 {
			variadic = "join"
			if k := resp.Functions["known"]; len(k.Parameters) != 1 || !k.Parameters[0].AllowUnknownValues || !k.Parameters[0].AllowNullValue || !k.ReturnType.Equals(cty.Bool) {
				t.Errorf("wrong known signature: %#v", k)
			}
		}
		if vp := resp.Functions[variadic].VariadicParameter; vp == nil || len(resp.Functions[variadic].Parameters) != 1 {
			t.Errorf("%s has no variadic parameter: %#v", variadic, resp.Functions[variadic])
		}
		fns, diags := p.GetFunctions(context.Background())
		noDiags(t, "GetFunctions", diags)
		if len(fns) != len(resp.Functions) {
			t.Errorf("GetFunctions returned %d functions, the schema has %d", len(fns), len(resp.Functions))
		}
	})
}

// TestCallFunction calls functions through both protocol versions, on
// unconfigured providers, and checks function errors keep their argument
// index.
func TestCallFunction(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		p := start(t, pc.binary)
		ctx := context.Background()
		resp := p.CallFunction(ctx, providers.CallFunctionRequest{FunctionName: "upper", Arguments: []cty.Value{cty.StringVal("abc")}})
		if resp.Err != nil || !resp.Result.RawEquals(cty.StringVal("ABC")) {
			t.Fatalf("upper(abc) = %#v, %v", resp.Result, resp.Err)
		}

		resp = p.CallFunction(ctx, providers.CallFunctionRequest{FunctionName: "upper", Arguments: []cty.Value{cty.StringVal("")}})
		var fe *providers.FunctionError
		if !errors.As(resp.Err, &fe) || fe.Argument == nil || *fe.Argument != 0 || !strings.Contains(fe.Text, "input must not be empty") {
			t.Fatalf("upper(\"\") error = %#v", resp.Err)
		}

		if pc.version == 6 {
			resp = p.CallFunction(ctx, providers.CallFunctionRequest{FunctionName: "join", Arguments: []cty.Value{
				cty.StringVal("-"), cty.StringVal("a"), cty.StringVal("b"), cty.StringVal("c"),
			}})
			if resp.Err != nil || !resp.Result.RawEquals(cty.StringVal("a-b-c")) {
				t.Fatalf("join = %#v, %v", resp.Result, resp.Err)
			}
			resp = p.CallFunction(ctx, providers.CallFunctionRequest{FunctionName: "known", Arguments: []cty.Value{cty.UnknownVal(cty.String)}})
			if resp.Err != nil || !resp.Result.RawEquals(cty.False) {
				t.Fatalf("known(unknown) = %#v, %v", resp.Result, resp.Err)
			}
			resp = p.CallFunction(ctx, providers.CallFunctionRequest{FunctionName: "fail", Arguments: []cty.Value{cty.StringVal("boom")}})
			if !errors.As(resp.Err, &fe) || fe.Argument != nil || !strings.Contains(fe.Text, "boom") {
				t.Fatalf("fail error = %#v", resp.Err)
			}
		} else {
			resp = p.CallFunction(ctx, providers.CallFunctionRequest{FunctionName: "repeat", Arguments: []cty.Value{
				cty.StringVal("ab"), cty.NumberIntVal(2), cty.NumberIntVal(1),
			}})
			if resp.Err != nil || !resp.Result.RawEquals(cty.StringVal("ababab")) {
				t.Fatalf("repeat = %#v, %v", resp.Result, resp.Err)
			}
		}

		resp = p.CallFunction(ctx, providers.CallFunctionRequest{FunctionName: "nope", Arguments: nil})
		if resp.Err == nil || !strings.Contains(resp.Err.Error(), `no function named "nope"`) {
			t.Fatalf("unknown function error = %v", resp.Err)
		}
	})
}

// TestFunctionAsCty runs a plugin function through the cty function that
// lang calls: type conversion, unknown and null arguments, and the
// argument index of a function error.
func TestFunctionAsCty(t *testing.T) {
	p := start(t, "stratafw")
	ctx := context.Background()
	decls := p.GetProviderSchema(ctx).Functions
	call := func(req providers.CallFunctionRequest) providers.CallFunctionResponse {
		return p.CallFunction(ctx, req)
	}
	upper := decls["upper"].Function("upper", call)
	known := decls["known"].Function("known", call)

	got, err := upper.Call([]cty.Value{cty.StringVal("x")})
	if err != nil || !got.RawEquals(cty.StringVal("X")) {
		t.Errorf("upper(x) = %#v, %v", got, err)
	}
	// Unknown arguments skip the call unless the parameter allows them.
	got, err = upper.Call([]cty.Value{cty.UnknownVal(cty.String)})
	if err != nil || got.IsKnown() {
		t.Errorf("upper(unknown) = %#v, %v", got, err)
	}
	got, err = known.Call([]cty.Value{cty.UnknownVal(cty.String)})
	if err != nil || !got.RawEquals(cty.False) {
		t.Errorf("known(unknown) = %#v, %v", got, err)
	}
	// A null is refused before the call.
	if _, err = upper.Call([]cty.Value{cty.NullVal(cty.String)}); err == nil {
		t.Error("upper(null) succeeded")
	}
	// A function error naming its argument is an ArgError.
	_, err = upper.Call([]cty.Value{cty.StringVal("")})
	var ae function.ArgError
	if !errors.As(err, &ae) || ae.Index != 0 || !strings.Contains(err.Error(), "input must not be empty") {
		t.Errorf("upper(\"\") error = %#v", err)
	}
	// Marks pass through.
	got, err = upper.Call([]cty.Value{cty.StringVal("s").Mark("sensitive")})
	if err != nil || !got.HasMark("sensitive") {
		t.Errorf("upper(sensitive) = %#v, %v", got, err)
	}
}
