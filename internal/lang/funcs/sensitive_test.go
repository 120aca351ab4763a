package funcs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestSensitiveFunctions(t *testing.T) {
	fns := Functions(testBaseDir, false)
	runExprTests(t, fns, map[string]exprTest{
		"sensitive":                {Expr: `sensitive(1)`, Want: cty.NumberIntVal(1).Mark(SensitiveMark)},
		"sensitive twice":          {Expr: `sensitive(secret)`, Want: cty.StringVal("hunter2").Mark(SensitiveMark)},
		"sensitive null":           {Expr: `sensitive(null)`, Want: cty.NullVal(cty.DynamicPseudoType).Mark(SensitiveMark)},
		"sensitive unknown":        {Expr: `sensitive(unknown_str)`, Want: cty.UnknownVal(cty.String).Mark(SensitiveMark)},
		"sensitive object":         {Expr: `sensitive({a=1})`, Want: cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1)}).Mark(SensitiveMark)},
		"nonsensitive":             {Expr: `nonsensitive(secret)`, Want: cty.StringVal("hunter2")},
		"nonsensitive plain":       {Expr: `nonsensitive(1)`, Want: cty.NumberIntVal(1)},
		"nonsensitive keeps other": {Expr: `nonsensitive(sensitive(ephemeral))`, Want: cty.StringVal("temp").Mark(EphemeralMark)},
		"nonsensitive derived":     {Expr: `nonsensitive(length(secret_list))`, Want: cty.NumberIntVal(2)},
		"issensitive true":         {Expr: `issensitive(sensitive(1))`, Want: cty.True},
		"issensitive false":        {Expr: `issensitive(1)`, Want: cty.False},
		"issensitive nested":       {Expr: `issensitive([sensitive(1)])`, Want: cty.False},
		"issensitive unknown":      {Expr: `issensitive(unknown_str)`, Want: cty.UnknownVal(cty.Bool)},
		"issensitive unknown mark": {Expr: `issensitive(sensitive(unknown_str))`, Want: cty.True},
		"issensitive null":         {Expr: `issensitive(null)`, Want: cty.False},
		"sensitive through concat": {Expr: `concat(secret_list, ["c"])`, Want: cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b"), cty.StringVal("c")}).Mark(SensitiveMark)},

		"ephemeralasnull":         {Expr: `ephemeralasnull(ephemeral)`, Want: cty.NullVal(cty.String)},
		"ephemeralasnull plain":   {Expr: `ephemeralasnull("x")`, Want: cty.StringVal("x")},
		"ephemeralasnull object":  {Expr: `ephemeralasnull({a=ephemeral, b="x"})`, Want: cty.ObjectVal(map[string]cty.Value{"a": cty.NullVal(cty.String), "b": cty.StringVal("x")})},
		"ephemeralasnull list":    {Expr: `ephemeralasnull(tolist([ephemeral, "y"]))`, Want: cty.ListVal([]cty.Value{cty.NullVal(cty.String), cty.StringVal("y")})},
		"ephemeralasnull keeps":   {Expr: `ephemeralasnull({a=ephemeral, s=secret})`, Want: cty.ObjectVal(map[string]cty.Value{"a": cty.NullVal(cty.String), "s": cty.StringVal("hunter2").Mark(SensitiveMark)})},
		"ephemeralasnull both":    {Expr: `ephemeralasnull(sensitive(ephemeral))`, Want: cty.NullVal(cty.String)}, // Terraform 1.11: issensitive(...) is false
		"ephemeralasnull map":     {Expr: `ephemeralasnull(tomap({a=ephemeral, b="x"}))`, Want: cty.MapVal(map[string]cty.Value{"a": cty.NullVal(cty.String), "b": cty.StringVal("x")})},
		"ephemeralasnull tuple":   {Expr: `ephemeralasnull([ephemeral, 1])`, Want: cty.TupleVal([]cty.Value{cty.NullVal(cty.String), cty.NumberIntVal(1)})},
		"ephemeralasnull unknown": {Expr: `ephemeralasnull(unknown_str)`, Want: cty.UnknownVal(cty.String)},
	})
}
