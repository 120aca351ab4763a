package funcs

import (
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// testBaseDir is the baseDir for the function tables used in tests.
const testBaseDir = "testdata"

// testVars are the variables available to expressions in tests.
var testVars = map[string]cty.Value{
	"secret":       cty.StringVal("hunter2").Mark(SensitiveMark),
	"unknown_dyn":  cty.DynamicVal,
	"secret_list":  cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}).Mark(SensitiveMark),
	"ephemeral":    cty.StringVal("temp").Mark(EphemeralMark),
	"unknown_str":  cty.UnknownVal(cty.String),
	"unknown_list": cty.UnknownVal(cty.List(cty.String)),
	"unknown_num":  cty.UnknownVal(cty.Number),
	"prefixed_unknown": cty.UnknownVal(cty.String).Refine().
		StringPrefix("https://").NewValue(),
	"null_str": cty.NullVal(cty.String),
	"local": cty.ObjectVal(map[string]cty.Value{
		"tmpl":     cty.StringVal("Hello, ${name}!"),
		"list":     cty.StringVal("${items}"),
		"nested":   cty.ObjectVal(map[string]cty.Value{"tmpl": cty.StringVal("n=${n}")}),
		"bad":      cty.StringVal("${"),
		"readfile": cty.StringVal("${file(\"hello.txt\")}"),
		"secret":   cty.StringVal("pw=${pw}").Mark(SensitiveMark),
	}),
}

// exprTest is one table-driven test case: an HCL expression, evaluated with
// the function table and testVars, and either the expected result or a
// substring of the expected error.
type exprTest struct {
	Expr    string
	Want    cty.Value
	WantErr string
}

func evalExpr(t *testing.T, fns map[string]function.Function, src string) (cty.Value, hcl.Diagnostics) {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "test.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("failed to parse %q: %s", src, diags.Error())
	}
	ctx := &hcl.EvalContext{
		Variables: testVars,
		Functions: fns,
	}
	return expr.Value(ctx)
}

func runExprTests(t *testing.T, fns map[string]function.Function, tests map[string]exprTest) {
	t.Helper()
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, diags := evalExpr(t, fns, tc.Expr)
			if tc.WantErr != "" {
				if !diags.HasErrors() {
					t.Fatalf("%s: expected error containing %q, got %#v", tc.Expr, tc.WantErr, got)
				}
				if msg := diags.Error(); !strings.Contains(msg, tc.WantErr) {
					t.Fatalf("%s: wrong error\ngot:  %s\nwant: ...%s...", tc.Expr, msg, tc.WantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatalf("%s: unexpected error: %s", tc.Expr, diags.Error())
			}
			assertValue(t, tc.Expr, got, tc.Want)
		})
	}
}

// assertValue compares values exactly, except that unknown values only
// need matching types and marks (refinements are ignored).
func assertValue(t *testing.T, what string, got, want cty.Value) {
	t.Helper()
	if !want.IsKnown() {
		gotRaw, gotMarks := got.Unmark()
		wantRaw, wantMarks := want.Unmark()
		if gotRaw.IsKnown() || !gotRaw.Type().Equals(wantRaw.Type()) || !gotMarks.Equal(wantMarks) {
			t.Errorf("%s: wrong result\ngot:  %#v\nwant: %#v", what, got, want)
		}
		return
	}
	if !got.RawEquals(want) {
		t.Errorf("%s: wrong result\ngot:  %#v\nwant: %#v", what, got, want)
	}
}

// terraformFunctions is every function name Terraform 1.11 reports through
// `terraform metadata functions -json` (without the core:: aliases).
var terraformFunctions = []string{
	"abs", "abspath", "alltrue", "anytrue", "base64decode", "base64encode",
	"base64gzip", "base64sha256", "base64sha512", "basename", "bcrypt", "can",
	"ceil", "chomp", "chunklist", "cidrhost", "cidrnetmask", "cidrsubnet",
	"cidrsubnets", "coalesce", "coalescelist", "compact", "concat", "contains",
	"csvdecode", "dirname", "distinct", "element", "endswith",
	"ephemeralasnull", "file", "filebase64", "filebase64sha256",
	"filebase64sha512", "fileexists", "filemd5", "fileset", "filesha1",
	"filesha256", "filesha512", "flatten", "floor", "format", "formatdate",
	"formatlist", "indent", "index", "issensitive", "join", "jsondecode",
	"jsonencode", "keys", "length", "log", "lookup", "lower", "matchkeys",
	"max", "md5", "merge", "min", "nonsensitive", "one", "parseint",
	"pathexpand", "plantimestamp", "pow", "range", "regex", "regexall",
	"replace", "reverse", "rsadecrypt", "sensitive", "setintersection",
	"setproduct", "setsubtract", "setunion", "sha1", "sha256", "sha512",
	"signum", "slice", "sort", "split", "startswith", "strcontains", "strrev",
	"substr", "sum", "templatefile", "templatestring", "textdecodebase64",
	"textencodebase64", "timeadd", "timecmp", "timestamp", "title", "tobool",
	"tolist", "tomap", "tonumber", "toset", "tostring", "transpose", "trim",
	"trimprefix", "trimspace", "trimsuffix", "try", "upper", "urlencode",
	"uuid", "uuidv5", "values", "yamldecode", "yamlencode", "zipmap",
}

func TestFunctionsTable(t *testing.T) {
	tests := map[string]struct {
		pure bool
	}{
		"impure": {pure: false},
		"pure":   {pure: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			fns := Functions(testBaseDir, tc.pure)
			for _, fn := range terraformFunctions {
				if _, ok := fns[fn]; !ok {
					t.Errorf("missing function %q", fn)
				}
				if _, ok := fns[CoreNamespace+fn]; !ok {
					t.Errorf("missing function %q", CoreNamespace+fn)
				}
			}
			known := make(map[string]bool, len(terraformFunctions))
			for _, fn := range terraformFunctions {
				known[fn] = true
			}
			var extra []string
			for fn := range fns {
				if !known[strings.TrimPrefix(fn, CoreNamespace)] {
					extra = append(extra, fn)
				}
			}
			sort.Strings(extra)
			if len(extra) > 0 {
				t.Errorf("functions that Terraform doesn't have: %v", extra)
			}
			if got, want := len(fns), 2*len(terraformFunctions); got != want {
				t.Errorf("table has %d entries, want %d", got, want)
			}
		})
	}
}

func TestFunctionsPurity(t *testing.T) {
	tests := map[string]struct {
		Expr      string
		WantKnown bool // in the impure table; the pure table is always unknown
		Type      cty.Type
	}{
		"uuid":          {Expr: `uuid()`, WantKnown: true, Type: cty.String},
		"timestamp":     {Expr: `timestamp()`, WantKnown: true, Type: cty.String},
		"bcrypt":        {Expr: `bcrypt("pw", 4)`, WantKnown: true, Type: cty.String},
		"plantimestamp": {Expr: `plantimestamp()`, WantKnown: true, Type: cty.String},
		"core alias":    {Expr: `core::uuid()`, WantKnown: true, Type: cty.String},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			impure, diags := evalExpr(t, Functions(testBaseDir, false), tc.Expr)
			if diags.HasErrors() {
				t.Fatalf("impure: %s", diags.Error())
			}
			if impure.IsKnown() != tc.WantKnown || !impure.Type().Equals(tc.Type) {
				t.Errorf("impure table: got %#v", impure)
			}
			pure, diags := evalExpr(t, Functions(testBaseDir, true), tc.Expr)
			if diags.HasErrors() {
				t.Fatalf("pure: %s", diags.Error())
			}
			if pure.IsKnown() || !pure.Type().Equals(tc.Type) {
				t.Errorf("pure table: got %#v, want unknown %s", pure, tc.Type.FriendlyName())
			}
		})
	}
}

func TestFunctionsPureStillChecksArguments(t *testing.T) {
	_, diags := evalExpr(t, Functions(testBaseDir, true), `bcrypt("a", 4, 5)`)
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "bcrypt() takes no more than two arguments") {
		t.Fatalf("expected argument count error, got %v", diags)
	}
}

func TestFunctionsCoreNamespace(t *testing.T) {
	runExprTests(t, Functions(testBaseDir, false), map[string]exprTest{
		"plain":     {Expr: `upper("a")`, Want: cty.StringVal("A")},
		"namespace": {Expr: `core::upper("a")`, Want: cty.StringVal("A")},
		"nested":    {Expr: `core::length(core::split(",", "a,b"))`, Want: cty.NumberIntVal(2)},
	})
}

func TestFunctionsDescriptions(t *testing.T) {
	for name, fn := range Functions(testBaseDir, false) {
		if fn.Description() == "" {
			t.Errorf("function %q has no description", name)
		}
	}
}
