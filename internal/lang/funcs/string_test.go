package funcs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestStringFunctions(t *testing.T) {
	fns := Functions(testBaseDir, false)
	runExprTests(t, fns, map[string]exprTest{
		"chomp":           {Expr: `chomp("hello\r\n\n")`, Want: cty.StringVal("hello")},
		"indent":          {Expr: `indent(2, "a\nb")`, Want: cty.StringVal("a\n  b")},
		"join":            {Expr: `join(", ", ["foo", "bar"])`, Want: cty.StringVal("foo, bar")},
		"join lists":      {Expr: `join("-", ["a"], ["b", "c"])`, Want: cty.StringVal("a-b-c")},
		"lower":           {Expr: `lower("HELLO")`, Want: cty.StringVal("hello")},
		"upper":           {Expr: `upper("hello")`, Want: cty.StringVal("HELLO")},
		"title":           {Expr: `title("hello world")`, Want: cty.StringVal("Hello World")},
		"split":           {Expr: `split(",", "a,b,c")`, Want: strList("a", "b", "c")},
		"strrev":          {Expr: `strrev("hello")`, Want: cty.StringVal("olleh")},
		"substr":          {Expr: `substr("hello world", 1, 4)`, Want: cty.StringVal("ello")},
		"substr negative": {Expr: `substr("hello", -3, -1)`, Want: cty.StringVal("llo")},
		"trim":            {Expr: `trim("?!hello?!", "!?")`, Want: cty.StringVal("hello")},
		"trimprefix":      {Expr: `trimprefix("helloworld", "hello")`, Want: cty.StringVal("world")},
		"trimsuffix":      {Expr: `trimsuffix("helloworld", "world")`, Want: cty.StringVal("hello")},
		"trimspace":       {Expr: `trimspace("  hi\n")`, Want: cty.StringVal("hi")},

		// format and formatlist
		"format":             {Expr: `format("Hello, %s!", "Ander")`, Want: cty.StringVal("Hello, Ander!")},
		"format integer":     {Expr: `format("There are %d lights", 4)`, Want: cty.StringVal("There are 4 lights")},
		"format mixed":       {Expr: `format("%s has %d items costing %.2f", "cart", 3, 9.5)`, Want: cty.StringVal("cart has 3 items costing 9.50")},
		"format verbs":       {Expr: `format("%5.2f|%-6s|%06d|%x|%q|%v|%#v", 3.14159, "ab", 42, 255, "hi", true, {a=1})`, Want: cty.StringVal(` 3.14|ab    |000042|ff|"hi"|true|{"a":1}`)},
		"format padding":     {Expr: `format("%-5s|%5s|", "ab", "cd")`, Want: cty.StringVal("ab   |   cd|")},
		"format bases":       {Expr: `format("%b %o %X %e", 5, 8, 255, 1234.5)`, Want: cty.StringVal("101 10 FF 1.234500e+03")},
		"format indexed":     {Expr: `format("%[2]s %[1]s", "a", "b")`, Want: cty.StringVal("b a")},
		"format json":        {Expr: `format("%v", [1, "a"])`, Want: cty.StringVal(`[1,"a"]`)},
		"format string num":  {Expr: `format("%d", "12")`, Want: cty.StringVal("12")},
		"format percent":     {Expr: `format("100%%")`, Want: cty.StringVal("100%")},
		"format bad integer": {Expr: `format("%d", 1.5)`, WantErr: `unsupported value for "%d" at 0: an integer is required`},
		"format bad string":  {Expr: `format("%%%s", [1])`, WantErr: `unsupported value for "%s" at 2: string required`},
		"formatlist":         {Expr: `formatlist("Hello, %s!", ["Valentina", "Ander"])`, Want: strList("Hello, Valentina!", "Hello, Ander!")},
		"formatlist scalar":  {Expr: `formatlist("%s=%d", ["a","b"], 1)`, Want: strList("a=1", "b=1")},

		// regex, regexall
		"regex":          {Expr: `regex("[a-z]+", "53453453.345345aaabbbccc23454")`, Want: cty.StringVal("aaabbbccc")},
		"regex groups":   {Expr: `regex("(\\d\\d\\d\\d)-(\\d\\d)", "2019-02-01")`, Want: strTuple("2019", "02")},
		"regex named":    {Expr: `regex("^(?:(?P<scheme>[^:/?#]+):)?", "https://x")`, Want: cty.ObjectVal(map[string]cty.Value{"scheme": cty.StringVal("https")})},
		"regex no match": {Expr: `regex("z", "abc")`, WantErr: `pattern did not match any part of the given string`},
		"regexall":       {Expr: `regexall("[a-z]+", "1234abcd5678efgh9")`, Want: strList("abcd", "efgh")},

		// replace, with literal and /regex/ patterns
		"replace":              {Expr: `replace("1 + 2 + 3", "+", "-")`, Want: cty.StringVal("1 - 2 - 3")},
		"replace all":          {Expr: `replace("hello", "l", "L")`, Want: cty.StringVal("heLLo")},
		"replace regex":        {Expr: `replace("hello world", "/w.*d/", "everybody")`, Want: cty.StringVal("hello everybody")},
		"replace regex group":  {Expr: `replace("a1b22c", "/(\\d+)/", "<$1>")`, Want: cty.StringVal("a<1>b<22>c")},
		"replace swap groups":  {Expr: `replace("hello", "/(h)(e)/", "$2$1")`, Want: cty.StringVal("ehllo")},
		"replace named group":  {Expr: `replace("hello", "/(?P<first>h)(e)/", "$${first}E")`, Want: cty.StringVal("hEllo")},
		"replace regex quant":  {Expr: `replace("aaa", "/a{2}/", "b")`, Want: cty.StringVal("ba")},
		"replace single slash": {Expr: `replace("abc", "/", "x")`, Want: cty.StringVal("abc")},
		"replace empty regex":  {Expr: `replace("a/b", "//", "x")`, Want: cty.StringVal("xax/xbx")},
		"replace bad regex":    {Expr: `replace("abc", "/[/", "x")`, WantErr: "error parsing regexp: missing closing ]: `[`"},

		// startswith, endswith, strcontains
		"startswith":              {Expr: `startswith("hello world", "hello")`, Want: cty.True},
		"startswith false":        {Expr: `startswith("hello world", "world")`, Want: cty.False},
		"startswith empty":        {Expr: `startswith("hello", "")`, Want: cty.True},
		"startswith unknown":      {Expr: `startswith(unknown_str, "x")`, Want: cty.UnknownVal(cty.Bool)},
		"startswith refined":      {Expr: `startswith(prefixed_unknown, "https:")`, Want: cty.True},
		"startswith refined no":   {Expr: `startswith(prefixed_unknown, "http:")`, Want: cty.False},
		"startswith refined long": {Expr: `startswith(prefixed_unknown, "https://example")`, Want: cty.UnknownVal(cty.Bool)},
		"startswith null":         {Expr: `startswith(null_str, "x")`, WantErr: `argument must not be null`},
		"endswith":                {Expr: `endswith("hello world", "world")`, Want: cty.True},
		"endswith false":          {Expr: `endswith("hello world", "hello")`, Want: cty.False},
		"endswith unknown":        {Expr: `endswith(prefixed_unknown, "x")`, Want: cty.UnknownVal(cty.Bool)},
		"strcontains":             {Expr: `strcontains("hello", "ell")`, Want: cty.True},
		"strcontains false":       {Expr: `strcontains("hello", "xyz")`, Want: cty.False},
		"strcontains empty":       {Expr: `strcontains("abc", "")`, Want: cty.True},
		"sensitive propagates":    {Expr: `upper(secret)`, Want: cty.StringVal("HUNTER2").Mark(SensitiveMark)},

		// templatestring
		"templatestring":           {Expr: `templatestring(local.tmpl, {name = "strata"})`, Want: cty.StringVal("Hello, strata!")},
		"templatestring nested":    {Expr: `templatestring(local.nested.tmpl, {n = 1})`, Want: cty.StringVal("n=1")},
		"templatestring index":     {Expr: `templatestring(local["tmpl"], {name = "x"})`, Want: cty.StringVal("Hello, x!")},
		"templatestring value":     {Expr: `templatestring(local.list, {items = ["a"]})`, WantErr: `invalid template result: string required`},
		"templatestring interp":    {Expr: `templatestring("${local.tmpl}", {})`, WantErr: `to treat the inner expression as template syntax, write the reference expression directly`},
		"templatestring inline":    {Expr: `templatestring("a${local.tmpl}", {})`, WantErr: `to render an inline template, consider using a plain template string expression`},
		"templatestring parens":    {Expr: `templatestring((local.tmpl), {})`, WantErr: `must be a direct reference to a single string from elsewhere, containing valid Terraform template syntax`},
		"templatestring number":    {Expr: `templatestring(local.nested, {})`, WantErr: `invalid template value: a string is required`},
		"templatestring file":      {Expr: `templatestring(local.readfile, {})`, WantErr: `cannot use filesystem access functions like file in templatestring templates`},
		"format dynamic":           {Expr: `format("%s", unknown_dyn)`, Want: cty.DynamicVal},
		"formatlist dynamic":       {Expr: `formatlist("%s", unknown_dyn)`, Want: cty.DynamicVal},
		"templatestring sensitive": {Expr: `templatestring(local.secret, {pw = "x"})`, Want: cty.StringVal("pw=x").Mark(SensitiveMark)},
		"templatestring functions": {Expr: `templatestring(local.tmpl, {name = upper("s")})`, Want: cty.StringVal("Hello, S!")},
		"templatestring literal":   {Expr: `templatestring("hi", {})`, WantErr: `templatestring is only for rendering templates retrieved dynamically from elsewhere`},
		"templatestring call":      {Expr: `templatestring(upper(local.tmpl), {})`, WantErr: `must be a direct reference to a single string from elsewhere`},
		"templatestring missing":   {Expr: `templatestring(local.tmpl, {})`, WantErr: `vars map does not contain key "name", referenced at <templatestring argument>:1,10-14`},
		"templatestring syntax":    {Expr: `templatestring(local.bad, {})`, WantErr: `Invalid value for "template" parameter: invalid template: <templatestring argument>:1,3-3: Missing expression`},
		"templatestring not map":   {Expr: `templatestring(local.tmpl, "x")`, WantErr: `invalid vars value: must be a map`},
		"templatestring unknown":   {Expr: `templatestring(local.tmpl, {name = unknown_str})`, Want: cty.UnknownVal(cty.String)},
	})
}
