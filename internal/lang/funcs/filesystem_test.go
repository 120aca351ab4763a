package funcs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestFileFunctions(t *testing.T) {
	fns := Functions(testBaseDir, false)
	runExprTests(t, fns, map[string]exprTest{
		"file":                {Expr: `file("hello.txt")`, Want: cty.StringVal("Hello World")},
		"file multiline":      {Expr: `file("multiline.txt")`, Want: cty.StringVal("line1\nline2\n")},
		"file nested":         {Expr: `file("tree/sub/c.txt")`, Want: cty.StringVal("c")},
		"file cleaned":        {Expr: `file("tree/../hello.txt")`, Want: cty.StringVal("Hello World")},
		"file sensitive path": {Expr: `file(sensitive("hello.txt"))`, Want: cty.StringVal("Hello World").Mark(SensitiveMark)},
		"file missing":        {Expr: `file("missing.txt")`, WantErr: `no file exists at "missing.txt"; this function works only with files that are distributed as part of the configuration source code`},
		"file missing secret": {Expr: `file(sensitive("missing.txt"))`, WantErr: `no file exists at (sensitive value);`},
		"file binary":         {Expr: `file("bin.dat")`, WantErr: `contents of "bin.dat" are not valid UTF-8; use the filebase64 function`},
		"file directory":      {Expr: `file("tree")`, WantErr: `is a directory`},
		"filebase64":          {Expr: `filebase64("bin.dat")`, Want: cty.StringVal("//4AAQ==")},
		"filebase64 text":     {Expr: `filebase64("hello.txt")`, Want: cty.StringVal("SGVsbG8gV29ybGQ=")},
		"filebase64 missing":  {Expr: `filebase64("missing.txt")`, WantErr: `no file exists at "missing.txt"`},

		"fileexists":           {Expr: `fileexists("hello.txt")`, Want: cty.True},
		"fileexists nested":    {Expr: `fileexists("tree/sub/deeper/d.txt")`, Want: cty.True},
		"fileexists missing":   {Expr: `fileexists("missing.txt")`, Want: cty.False},
		"fileexists directory": {Expr: `fileexists("tree")`, WantErr: `"tree" is a directory, not a file`},

		// fileset, with results checked against terraform console on the
		// same tree
		"fileset all":           {Expr: `fileset("tree", "**")`, Want: strSet(".hidden", "a.txt", "b.json", "sub/c.txt", "sub/deeper/d.txt")},
		"fileset braces":        {Expr: `fileset("tree", "*.{txt,json}")`, Want: strSet("a.txt", "b.json")},
		"fileset recursive ext": {Expr: `fileset("tree", "**/*.txt")`, Want: strSet("a.txt", "sub/c.txt", "sub/deeper/d.txt")},
		"fileset subdir":        {Expr: `fileset("tree", "sub/*")`, Want: strSet("sub/c.txt")},
		"fileset from root":     {Expr: `fileset(".", "tree/sub/**/d.txt")`, Want: strSet("tree/sub/deeper/d.txt")},
		"fileset question":      {Expr: `fileset("tree", "?.txt")`, Want: strSet("a.txt")},
		"fileset class":         {Expr: `fileset("tree", "[ab].*")`, Want: strSet("a.txt", "b.json")},
		"fileset negated class": {Expr: `fileset("tree", "[^a].*")`, Want: strSet("b.json")},
		"fileset literal":       {Expr: `fileset(".", "tree/a.txt")`, Want: strSet("tree/a.txt")},
		"fileset literal dir":   {Expr: `fileset(".", "tree")`, Want: strSet()},
		"fileset trailing /":    {Expr: `fileset("tree", "sub/*/")`, Want: strSet("sub/c.txt")},
		"fileset doublestar /":  {Expr: `fileset("tree", "**/")`, Want: strSet(".hidden", "a.txt", "b.json", "sub/c.txt", "sub/deeper/d.txt")},
		"fileset sub recursive": {Expr: `fileset("tree", "sub/**/*")`, Want: strSet("sub/c.txt", "sub/deeper/d.txt")},
		// Terraform rejects "/" inside braces; strata allows it.
		"fileset brace paths": {Expr: `fileset("tree", "{sub/*,*.json}")`, Want: strSet("b.json", "sub/c.txt")},
		"fileset no match":    {Expr: `fileset("tree", "*.md")`, Want: strSet()},
		"fileset missing dir": {Expr: `fileset("nonexist", "*")`, Want: strSet()},
		"fileset bad pattern": {Expr: `fileset("tree", "[")`, WantErr: `failed to glob pattern "tree/[": syntax error in pattern`},
		"fileset bad brace":   {Expr: `fileset("tree", "{a,b")`, WantErr: `failed to glob pattern "tree/{a,b": syntax error in pattern`},

		// path manipulation
		"basename":        {Expr: `basename("foo/bar/baz.txt")`, Want: cty.StringVal("baz.txt")},
		"basename dir":    {Expr: `basename("foo/bar/")`, Want: cty.StringVal("bar")},
		"basename empty":  {Expr: `basename("")`, Want: cty.StringVal(".")},
		"dirname":         {Expr: `dirname("foo/bar/baz.txt")`, Want: cty.StringVal("foo/bar")},
		"dirname single":  {Expr: `dirname("baz")`, Want: cty.StringVal(".")},
		"dirname empty":   {Expr: `dirname("")`, Want: cty.StringVal(".")},
		"pathexpand rel":  {Expr: `pathexpand("x")`, Want: cty.StringVal("x")},
		"pathexpand user": {Expr: `pathexpand("~bob/x")`, WantErr: `cannot expand user-specific home dir`},
	})
}

func TestFileFunctionsAbsoluteBaseDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "mod", "files"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mod", "files", "x.txt"), []byte("module file"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "abs.txt"), []byte("absolute"), 0o644); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "h.txt"), []byte("from home"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)

	modDir := filepath.Join(dir, "mod")
	fns := Functions(modDir, false)
	absFile := filepath.ToSlash(filepath.Join(dir, "abs.txt"))
	runExprTests(t, fns, map[string]exprTest{
		"relative":          {Expr: `file("files/x.txt")`, Want: cty.StringVal("module file")},
		"parent":            {Expr: `file("../abs.txt")`, Want: cty.StringVal("absolute")},
		"absolute":          {Expr: `file("` + absFile + `")`, Want: cty.StringVal("absolute")},
		"home":              {Expr: `file("~/h.txt")`, Want: cty.StringVal("from home")},
		"fileexists":        {Expr: `fileexists("files/x.txt")`, Want: cty.True},
		"fileset":           {Expr: `fileset("files", "*")`, Want: strSet("x.txt")},
		"fileset dot":       {Expr: `fileset(".", "**")`, Want: strSet("files/x.txt")},
		"fileset absolute":  {Expr: `fileset("` + filepath.ToSlash(dir) + `", "*.txt")`, Want: strSet("abs.txt")},
		"fileset parent":    {Expr: `fileset("..", "*.txt")`, Want: strSet("abs.txt")},
		"filesha1":          {Expr: `filesha1("files/x.txt")`, Want: cty.StringVal("53f04d80caae85190f89cd707b12c9f88d4e6777")},
		"abspath":           {Expr: `abspath("files")`, Want: cty.StringVal(filepath.ToSlash(filepath.Join(modDir, "files")))},
		"abspath dot":       {Expr: `abspath(".")`, Want: cty.StringVal(filepath.ToSlash(modDir))},
		"abspath absolute":  {Expr: `abspath("` + absFile + `")`, Want: cty.StringVal(absFile)},
		"pathexpand":        {Expr: `pathexpand("~/x")`, Want: cty.StringVal(filepath.Join(home, "x"))},
		"pathexpand tilde":  {Expr: `pathexpand("~")`, Want: cty.StringVal(home)},
		"pathexpand middle": {Expr: `pathexpand("a/~/x")`, Want: cty.StringVal("a/~/x")},
	})
}

func TestTemplateFileFunction(t *testing.T) {
	fns := Functions(testBaseDir, false)
	runExprTests(t, fns, map[string]exprTest{
		"render": {
			Expr: `templatefile("templates/greeting.tftpl", {name="strata", addrs=["10.0.0.1","10.0.0.2"]})`,
			Want: cty.StringVal("Hello, strata!\nbackend 10.0.0.1:8080\nbackend 10.0.0.2:8080\nUpper: STRATA\n"),
		},
		"no items":     {Expr: `templatefile("templates/greeting.tftpl", {name="x", addrs=[]})`, Want: cty.StringVal("Hello, x!\nUpper: X\n")},
		"map vars":     {Expr: `templatefile("templates/list.tftpl", tomap({items="a"}))`, Want: cty.StringVal("a")},
		"single value": {Expr: `templatefile("templates/list.tftpl", {items=["a","b"]})`, Want: strTuple("a", "b")},
		"functions":    {Expr: `templatefile("templates/json.tftpl", {name="x", tags={b="2",a="1"}})`, Want: cty.StringVal(`{"name":"x","tags":{"a":"1","b":"2"}}`)},
		"dash names":   {Expr: `templatefile("templates/list.tftpl", {items="ok", "with-dash"=1})`, Want: cty.StringVal("ok")},
		"sensitive":    {Expr: `templatefile("templates/list.tftpl", {items=secret})`, Want: cty.StringVal("hunter2").Mark(SensitiveMark)},
		"sensitive vars": {
			Expr: `templatefile("templates/list.tftpl", sensitive({items="x"}))`,
			Want: cty.StringVal("x").Mark(SensitiveMark),
		},
		"unknown var":  {Expr: `templatefile("templates/list.tftpl", {items=unknown_str})`, Want: cty.UnknownVal(cty.String)},
		"unknown vars": {Expr: `templatefile("templates/list.tftpl", unknown_list)`, WantErr: `invalid vars value: must be a map`},
		"missing var":  {Expr: `templatefile("templates/greeting.tftpl", {name="x"})`, WantErr: `Invalid value for "vars" parameter: vars map does not contain key "addrs", referenced at templates/greeting.tftpl:2,16-21`},
		"bad var name": {Expr: `templatefile("templates/list.tftpl", {"1bad"=1, items=1})`, WantErr: `invalid template variable name "1bad": must start with a letter, followed by zero or more letters, digits, and underscores`},
		"null vars":    {Expr: `templatefile("templates/list.tftpl", null)`, WantErr: `argument must not be null`},
		"string vars":  {Expr: `templatefile("templates/list.tftpl", "x")`, WantErr: `invalid vars value: must be a map`},
		"missing file": {Expr: `templatefile("nope.tftpl", {})`, WantErr: `Invalid value for "path" parameter: no file exists at "nope.tftpl"`},
		"syntax error": {Expr: `templatefile("templates/badsyntax.tftpl", {})`, WantErr: `templates/badsyntax.tftpl:1,8-8: Missing expression; Expected the start of an expression, but found the end of the file.`},
		"recursion":    {Expr: `templatefile("templates/recursive.tftpl", {})`, WantErr: `cannot recursively call templatefile from inside another template function`},
		"bad interpolation": {
			Expr:    `templatefile("templates/greeting.tftpl", {name=["x"], addrs=[]})`,
			WantErr: `Invalid template interpolation value`,
		},
	})
}

func TestTemplateFileUnknownPath(t *testing.T) {
	fns := Functions(testBaseDir, false)
	got, diags := evalExpr(t, fns, `templatefile(unknown_str, {})`)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if got.IsKnown() {
		t.Errorf("expected unknown result, got %#v", got)
	}
}
