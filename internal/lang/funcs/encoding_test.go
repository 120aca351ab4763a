package funcs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestEncodingFunctions(t *testing.T) {
	fns := Functions(testBaseDir, false)
	runExprTests(t, fns, map[string]exprTest{
		// base64
		"base64encode":           {Expr: `base64encode("héllo")`, Want: cty.StringVal("aMOpbGxv")},
		"base64decode":           {Expr: `base64decode("aGVsbG8=")`, Want: cty.StringVal("hello")},
		"base64decode unicode":   {Expr: `base64decode("4pyT")`, Want: cty.StringVal("✓")},
		"base64decode invalid":   {Expr: `base64decode("aGVsbG8")`, WantErr: `failed to decode base64 data "aGVsbG8"`},
		"base64decode not utf8":  {Expr: `base64decode("/w==")`, WantErr: `the result of decoding the provided string is not valid UTF-8`},
		"base64decode sensitive": {Expr: `base64decode(sensitive("aGVsbG8"))`, WantErr: `failed to decode base64 data (sensitive value)`},
		"base64decode marks":     {Expr: `base64decode(sensitive("aGVsbG8="))`, Want: cty.StringVal("hello").Mark(SensitiveMark)},
		"base64gzip":             {Expr: `base64gzip("hello")`, Want: cty.StringVal("H4sIAAAAAAAA/8pIzcnJBwAAAP//AQAA//+GphA2BQAAAA==")},
		"base64gzip test":        {Expr: `base64gzip("test")`, Want: cty.StringVal("H4sIAAAAAAAA/ypJLS4BAAAA//8BAAD//wx+f9gEAAAA")},
		"urlencode":              {Expr: `urlencode("Hello World!/ä?&=")`, Want: cty.StringVal("Hello+World%21%2F%C3%A4%3F%26%3D")},
		"urlencode path":         {Expr: `urlencode("a b&c=d/é")`, Want: cty.StringVal("a+b%26c%3Dd%2F%C3%A9")},

		// textencodebase64 / textdecodebase64
		"textencodebase64 utf16":    {Expr: `textencodebase64("Hello World", "UTF-16LE")`, Want: cty.StringVal("SABlAGwAbABvACAAVwBvAHIAbABkAA==")},
		"textencodebase64 utf8":     {Expr: `textencodebase64("hello", "UTF-8")`, Want: cty.StringVal("aGVsbG8=")},
		"textencodebase64 latin1":   {Expr: `textencodebase64("héllo", "ISO-8859-1")`, Want: cty.StringVal("aOlsbG8=")},
		"textencodebase64 bad name": {Expr: `textencodebase64("x", "foo")`, WantErr: `"foo" is not a supported IANA encoding name or alias in this Terraform version`},
		"textencodebase64 lossy":    {Expr: `textencodebase64("€", "ISO-8859-1")`, WantErr: `the given string contains characters that cannot be represented in ISO_8859-1:1987`},
		"textdecodebase64 utf16":    {Expr: `textdecodebase64("SABlAGwAbABvACAAVwBvAHIAbABkAA==", "UTF-16LE")`, Want: cty.StringVal("Hello World")},
		"textdecodebase64 latin1":   {Expr: `textdecodebase64("aOlsbG8=", "ISO-8859-1")`, Want: cty.StringVal("héllo")},
		"textdecodebase64 invalid":  {Expr: `textdecodebase64("x", "UTF-8")`, WantErr: `the given value is has an invalid base64 symbol at offset 0`},
		"textdecodebase64 bad utf8": {Expr: `textdecodebase64("/w==", "UTF-8")`, WantErr: `the given string contains symbols that are not defined for UTF-8`},

		// JSON
		"jsonencode ordering": {Expr: `jsonencode({z=1, a=[true,null,"s"], m={b="<>&"}})`, Want: cty.StringVal(`{"a":[true,null,"s"],"m":{"b":"\u003c\u003e\u0026"},"z":1}`)},
		"jsonencode nested":   {Expr: `jsonencode({b=[1,2], a={y=true, x=null}})`, Want: cty.StringVal(`{"a":{"x":null,"y":true},"b":[1,2]}`)},
		"jsonencode map":      {Expr: `jsonencode(tomap({b=1,a=2}))`, Want: cty.StringVal(`{"a":2,"b":1}`)},
		"jsonencode null":     {Expr: `jsonencode(null)`, Want: cty.StringVal("null")},
		"jsonencode number":   {Expr: `jsonencode(1.5)`, Want: cty.StringVal("1.5")},
		"jsonencode empty":    {Expr: `jsonencode([])`, Want: cty.StringVal("[]")},
		"jsondecode": {Expr: `jsondecode("{\"a\":[1,true,null,\"s\"],\"b\":{\"c\":1.5}}")`, Want: cty.ObjectVal(map[string]cty.Value{
			"a": cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.True, cty.NullVal(cty.DynamicPseudoType), cty.StringVal("s")}),
			"b": cty.ObjectVal(map[string]cty.Value{"c": cty.MustParseNumberVal("1.5")}),
		})},
		"jsondecode invalid": {Expr: `jsondecode("[1")`, WantErr: `EOF`},

		// CSV
		"csvdecode": {Expr: `csvdecode("a,b\n1,2\n3,4")`, Want: cty.ListVal([]cty.Value{
			cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("1"), "b": cty.StringVal("2")}),
			cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("3"), "b": cty.StringVal("4")}),
		})},
		"csvdecode ragged": {Expr: `csvdecode("a,b\n1")`, WantErr: `CSV parse error on line 2: wrong number of fields`},

		// YAML
		"yamlencode object": {
			Expr: `yamlencode({name="web", ports=[80, 443], enabled=true, ratio=0.5, meta={owner="ops"}, empty={}, nothing=null})`,
			Want: cty.StringVal("\"empty\": {}\n\"enabled\": true\n\"meta\":\n  \"owner\": \"ops\"\n\"name\": \"web\"\n\"nothing\": null\n\"ports\":\n- 80\n- 443\n\"ratio\": 0.5\n"),
		},
		"yamlencode block string": {
			Expr: `yamlencode({a="b", c=[1,2,{d=true}], e=null, f="multi\nline\n"})`,
			Want: cty.StringVal("\"a\": \"b\"\n\"c\":\n- 1\n- 2\n- \"d\": true\n\"e\": null\n\"f\": |\n  multi\n  line\n"),
		},
		"yamlencode list":      {Expr: `yamlencode(["a", {b=1}])`, Want: cty.StringVal("- \"a\"\n- \"b\": 1\n")},
		"yamlencode string":    {Expr: `yamlencode("x")`, Want: cty.StringVal("\"x\"\n")},
		"yamlencode multiline": {Expr: `yamlencode("multi\nline")`, Want: cty.StringVal("|-\n  multi\n  line\n")},
		"yamlencode bool":      {Expr: `yamlencode(true)`, Want: cty.StringVal("true\n...\n")},
		"yamlencode empty":     {Expr: `yamlencode([])`, Want: cty.StringVal("[]\n")},
		"yamldecode": {Expr: `yamldecode("a: 1\nb: [x, y]\nc: {d: true}")`, Want: cty.ObjectVal(map[string]cty.Value{
			"a": cty.NumberIntVal(1),
			"b": cty.TupleVal([]cty.Value{cty.StringVal("x"), cty.True}),
			"c": cty.ObjectVal(map[string]cty.Value{"d": cty.True}),
		})},
		"yamldecode list": {Expr: `yamldecode("- 1\n- a\n- null\n- 1.5")`, Want: cty.TupleVal([]cty.Value{
			cty.NumberIntVal(1), cty.StringVal("a"), cty.NullVal(cty.DynamicPseudoType), cty.MustParseNumberVal("1.5"),
		})},
		"yamldecode alias":    {Expr: `yamldecode("a: &x 1\nb: *x")`, Want: cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1), "b": cty.NumberIntVal(1)})},
		"yamldecode scalar":   {Expr: `yamldecode("str")`, Want: cty.StringVal("str")},
		"yamldecode empty":    {Expr: `yamldecode("")`, WantErr: `on line 1, column 1: missing start of document`},
		"yamldecode invalid":  {Expr: `yamldecode("a: [")`, WantErr: `did not find expected node content`},
		"yamldecode multidoc": {Expr: `yamldecode("a: 1\n---\nb: 2")`, WantErr: `unexpected extra content after value`},
		"yaml roundtrip":      {Expr: `yamldecode(yamlencode({a=[1, "x"]}))`, Want: cty.ObjectVal(map[string]cty.Value{"a": cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.StringVal("x")})})},
	})
}
