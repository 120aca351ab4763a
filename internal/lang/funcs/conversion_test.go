package funcs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestConversionFunctions(t *testing.T) {
	fns := Functions(testBaseDir, false)
	runExprTests(t, fns, map[string]exprTest{
		"tostring number":    {Expr: `tostring(1)`, Want: cty.StringVal("1")},
		"tostring fraction":  {Expr: `tostring(1.5)`, Want: cty.StringVal("1.5")},
		"tostring bool":      {Expr: `tostring(true)`, Want: cty.StringVal("true")},
		"tostring null":      {Expr: `tostring(null)`, Want: cty.NullVal(cty.String)},
		"tostring sensitive": {Expr: `tostring(sensitive(1))`, Want: cty.StringVal("1").Mark(SensitiveMark)},
		"tostring unknown":   {Expr: `tostring(unknown_num)`, Want: cty.UnknownVal(cty.String)},
		"tostring tuple":     {Expr: `tostring([1])`, WantErr: `Invalid value for "v" parameter: cannot convert tuple to string`},
		"tostring object":    {Expr: `tostring({})`, WantErr: `cannot convert object to string`},
		"tonumber":           {Expr: `tonumber("1.5")`, Want: cty.MustParseNumberVal("1.5")},
		"tonumber null":      {Expr: `tonumber(null)`, Want: cty.NullVal(cty.Number)},
		"tonumber invalid":   {Expr: `tonumber("x")`, WantErr: `cannot convert "x" to number; given string must be a decimal representation of a number`},
		"tonumber hex":       {Expr: `tonumber("0x10")`, WantErr: `cannot convert "0x10" to number`},
		"tonumber sensitive": {Expr: `tonumber(sensitive("x"))`, WantErr: `cannot convert this sensitive string to number`},
		"tobool":             {Expr: `tobool("true")`, Want: cty.True},
		"tobool invalid":     {Expr: `tobool("yes")`, WantErr: `cannot convert "yes" to bool; only the strings "true" or "false" are allowed`},
		"tobool number":      {Expr: `tobool(1)`, WantErr: `cannot convert number to bool`},
		"tolist":             {Expr: `tolist(["a", 1])`, Want: strList("a", "1")},
		"tolist set":         {Expr: `tolist(toset(["b","a"]))`, Want: strList("a", "b")},
		"tolist empty":       {Expr: `tolist([])`, Want: cty.ListValEmpty(cty.DynamicPseudoType)},
		"tolist mixed":       {Expr: `tolist(["a", [1]])`, WantErr: `cannot convert tuple to list of any single type`},
		"tolist string":      {Expr: `tolist("x")`, WantErr: `cannot convert string to list of any single type`},
		"tolist unknown":     {Expr: `tolist(unknown_list)`, Want: cty.UnknownVal(cty.List(cty.String))},
		"toset":              {Expr: `toset(["b","a","b"])`, Want: strSet("a", "b")},
		"toset mixed":        {Expr: `toset([1, "a"])`, Want: strSet("1", "a")},
		"tomap":              {Expr: `tomap({a=1, b="x"})`, Want: cty.MapVal(map[string]cty.Value{"a": cty.StringVal("1"), "b": cty.StringVal("x")})},
		"tomap empty":        {Expr: `tomap({})`, Want: cty.MapValEmpty(cty.DynamicPseudoType)},
		"tomap mixed":        {Expr: `tomap({a=1, b=[1]})`, WantErr: `cannot convert object to map of any single type`},
		"tomap tuple":        {Expr: `tomap(["a"])`, WantErr: `cannot convert tuple to map of any single type`},

		// try and can need expression access, so they only work when called
		// from HCL expressions like these.
		"try first ok":          {Expr: `try("a", "b")`, Want: cty.StringVal("a")},
		"try missing attr":      {Expr: `try(local.nope, "fallback")`, Want: cty.StringVal("fallback")},
		"try function error":    {Expr: `try(tonumber("x"), 0)`, Want: cty.NumberIntVal(0)},
		"try traversal":         {Expr: `try(jsondecode("{"), {a=1}).a`, Want: cty.NumberIntVal(1)},
		"try chain":             {Expr: `try(local.nope, local.tmpl.nope, local.nested.tmpl)`, Want: cty.StringVal("n=${n}")},
		"try unknown":           {Expr: `try(unknown_str, "x")`, Want: cty.DynamicVal},
		"try all fail":          {Expr: `try(local.nope, tonumber("x"))`, WantErr: `no expression succeeded`},
		"try nothing":           {Expr: `try()`, WantErr: `at least one argument is required`},
		"can ok":                {Expr: `can(tonumber("1"))`, Want: cty.True},
		"can fail":              {Expr: `can(tonumber("x"))`, Want: cty.False},
		"can regex":             {Expr: `can(regex("^a", "abc"))`, Want: cty.True},
		"can missing":           {Expr: `can(local.nope)`, Want: cty.False},
		"can cidr":              {Expr: `can(cidrnetmask("fd00::/64"))`, Want: cty.False},
		"can unknown":           {Expr: `can(unknown_str)`, Want: cty.UnknownVal(cty.Bool)},
		"try in namespace":      {Expr: `core::try(local.nope, 1)`, Want: cty.NumberIntVal(1)},
		"can with templatefile": {Expr: `can(templatefile("templates/greeting.tftpl", {}))`, Want: cty.False},
	})
}
