package command

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/strata-dev/strata/internal/lang/funcs"
)

// The built-in function library, compared with Terraform's: every
// expression below is evaluated by `strata console` and by
// `terraform console` in the same directory, and the printed values (or,
// for the error cases, the diagnostics) must be the same.
//
// terraform console prints only the result of the last line it reads from
// a pipe, so the expressions that succeed are evaluated in a few runs, each
// of one object constructor holding a chunk of them ({ c0001 = EXPR, ... });
// the printed object is then split back into one value per expression.
// Each error case takes a run of its own, since both tools stop at the
// first error.

// fnExprs are expressions exercising one function.
type fnExprs struct {
	fn    string
	exprs []string
}

// functionConsoleValues evaluate without errors. Grouped as Terraform's
// documentation groups the functions.
var functionConsoleValues = []fnExprs{
	// Numeric functions.
	{"abs", []string{`abs(23)`, `abs(0)`, `abs(-12.4)`, `abs(-0)`, `abs(-1e40)`, `abs("-3")`, `abs(var.n)`, `abs(terraform_data.u.output)`}},
	{"ceil", []string{`ceil(5)`, `ceil(5.1)`, `ceil(-5.1)`, `ceil(-0.5)`, `ceil("1.5")`, `ceil(12345678901234567890.5)`}},
	{"floor", []string{`floor(5)`, `floor(4.9)`, `floor(-4.1)`, `floor(0.0)`, `floor("-1.5")`}},
	{"log", []string{`log(50, 10)`, `log(16, 2)`, `log(1, 10)`, `log(0.5, 2)`, `log(10, 10)`, `log(8, 0.5)`}},
	{"max", []string{`max(12, 54, 3)`, `max(-1)`, `max([12, 54, 3]...)`, `max(-1.5, -1.25)`, `max("3", 2)`, `max(0.1, 0.2)`}},
	{"min", []string{`min(12, 54, 3)`, `min(-1)`, `min([12, 54, 3]...)`, `min(-1.5, -1.25)`, `min("3", 4)`}},
	{"parseint", []string{`parseint("100", 10)`, `parseint("FF", 16)`, `parseint("-10", 16)`, `parseint("1011111011101111", 2)`, `parseint("aA", 36)`, `parseint("zz", 37)`, `parseint("+7", 8)`, `parseint("-0", 10)`, `parseint("123456789012345678901234567890", 10)`}},
	{"pow", []string{`pow(3, 2)`, `pow(4, 0)`, `pow(2, -1)`, `pow(-2, 3)`, `pow(2, 0.5)`, `pow(0, 0)`, `pow(10, 20)`, `pow(2, 100)`}},
	{"signum", []string{`signum(-13)`, `signum(0)`, `signum(344)`, `signum(-0)`}},
	{"sum", []string{`sum([10, 13, 6, 2])`, `sum([-1.5, 2])`, `sum(toset([1, 2]))`, `sum(["1", "2"])`, `sum([0.1, 0.2])`, `sum([1])`, `sum(tolist([3, 4]))`}},

	// String functions.
	{"chomp", []string{`chomp("hello\n")`, `chomp("hello\r\n")`, `chomp("hello\n\n")`, `chomp("")`, `chomp("a\nb")`, `chomp("\n")`}},
	{"endswith", []string{`endswith("hello world", "world")`, `endswith("hello world", "hello")`, `endswith("", "")`, `endswith("abc", "")`, `endswith("héllo", "llo")`}},
	{"format", []string{
		`format("Hello, %s!", "Ander")`, `format("There are %d lights", 4)`, `format("%.2f", 3.14159)`,
		`format("%5d|%-5d|%05d", 1, 2, 3)`, `format("%q", "a\"b")`, `format("%v %v %v", true, 1.5, "x")`,
		`format("%#v", {a = 1})`, `format("100%%")`, `format("%t", true)`, `format("%x %X %o %b %e", 255, 255, 8, 5, 1234.5)`,
		`format("%[2]s %[1]s", "a", "b")`, `format("%s", "✓")`, `format("%-6s|%6s|", "ab", "cd")`, `format("%v", [1, "a"])`,
		`format("%d", "12")`, `format("%g", 0.000001)`, `format("%s", terraform_data.u.id)`, `format("%v", null)`,
		`format("%.3s", "abcdef")`, `format("%E %G", 1234.5, 1234.5)`,
	}},
	{"formatlist", []string{
		`formatlist("Hello, %s!", ["a", "b"])`, `formatlist("%s=%s", ["a", "b"], ["1", "2"])`, `formatlist("%s", [])`,
		`formatlist("%s-%s", "x", ["a", "b"])`, `formatlist("%s=%d", ["a", "b"], 1)`, `formatlist("%v", [true, false])`,
	}},
	{"indent", []string{`indent(2, "a\nb\nc")`, `indent(4, "single")`, `indent(0, "a\n b")`, `indent(2, "")`, `indent(2, "a\n\nb\n")`}},
	{"join", []string{`join(", ", ["foo", "bar", "baz"])`, `join(", ", ["foo"])`, `join("-", [])`, `join("", ["a"], ["b", "c"])`, `join("✓", toset(["b", "a"]))`, `join(",", [1, true])`}},
	{"lower", []string{`lower("HELLO")`, `lower("ÀÉÎ")`, `lower("")`, `lower("ΑΒΓ")`}},
	{"regex", []string{
		`regex("[a-z]+", "53453453.345345aaabbbccc23454")`, `regex("(\\d\\d\\d\\d)-(\\d\\d)-(\\d\\d)", "2019-02-01")`,
		`regex("^(?:(?P<scheme>[^:/?#]+):)?(?://(?P<authority>[^/?#]*))?", "https://terraform.io/docs/")`,
		`regex("(a)|(b)", "b")`, `regex("é+", "aééb")`, `regex("", "abc")`,
	}},
	{"regexall", []string{`regexall("[a-z]+", "1234abcd5678efgh9")`, `regexall("[a-z]+", "123")`, `length(regexall("[a-z]+", "a1b2"))`, `regexall("(\\d)(\\w)", "1a2b")`, `regexall("(?P<d>\\d)", "1a2")`}},
	{"replace", []string{
		`replace("1 + 2 + 3", "+", "-")`, `replace("hello world", "/w.*d/", "everybody")`, `replace("hello", "/(l+)/", "[$1]")`,
		`replace("aaa", "a", "")`, `replace("", "a", "b")`, `replace("a/b", "/", "x")`, `replace("héllo", "é", "e")`,
		`replace("hello", "/(?P<first>h)(e)/", "$${first}E")`, `replace("abc", "", "-")`,
	}},
	{"split", []string{`split(",", "foo,bar,baz")`, `split(",", "foo")`, `split(",", "")`, `split("", "abc")`, `split(", ", "a, b,c")`, `split("✓", "a✓b")`}},
	{"startswith", []string{`startswith("hello world", "hello")`, `startswith("hello world", "world")`, `startswith("", "")`, `startswith("✓x", "✓")`}},
	{"strcontains", []string{`strcontains("hello world", "wor")`, `strcontains("hello world", "wod")`, `strcontains("a", "")`, `strcontains("", "a")`}},
	{"strrev", []string{`strrev("hello")`, `strrev("a☃b")`, `strrev("")`, `strrev("e\u0301x")`, `strrev("🇫🇷🇩🇪")`}},
	{"substr", []string{
		`substr("hello world", 1, 4)`, `substr("🤔🤷", 0, 1)`, `substr("hello", -3, -1)`, `substr("hello", 1, -1)`,
		`substr("hello", 0, 10)`, `substr("hello", 5, 1)`, `substr("", 0, 1)`, `substr("e\u0301x", 0, 1)`, `substr("hello", -10, 2)`, `substr("hello", 0, -2)`, `substr("hello", 6, 1)`,
	}},
	{"templatestring", []string{`templatestring(local.tpl, { name = "x", items = ["a", "b"] })`, `templatestring(local.plain, {})`, `templatestring(local.tpl, { name = 1, items = [] })`, `templatestring(local.tpl, { name = terraform_data.u.id, items = [] })`, `templatestring(local.tpl, { name = var.secret, items = [] })`, `templatestring(local.list[0], {})`}},
	{"title", []string{`title("hello world")`, `title("élan vital")`, `title("")`, `title("HELLO wORLD")`, `title("a-b c_d")`}},
	{"trim", []string{`trim("?!hello?!", "!?")`, `trim("  x ", " ")`, `trim("xxaxx", "x")`, `trim("", "x")`, `trim("abc", "")`, `trim("✓a✓", "✓")`}},
	{"trimprefix", []string{`trimprefix("helloworld", "hello")`, `trimprefix("x", "y")`, `trimprefix("aaa", "a")`, `trimprefix("", "")`}},
	{"trimspace", []string{`trimspace("  hello\n\t ")`, `trimspace("\u00a0x\u2003")`, `trimspace("")`, `trimspace(" a b ")`}},
	{"trimsuffix", []string{`trimsuffix("helloworld", "world")`, `trimsuffix("x", "y")`, `trimsuffix("aaa", "a")`}},
	{"upper", []string{`upper("hello")`, `upper("ß")`, `upper("éà")`, `upper("")`, `upper(terraform_data.u.id)`}},

	// Collection functions.
	{"alltrue", []string{`alltrue([true, true])`, `alltrue([])`, `alltrue(["true"])`, `alltrue([true, false])`, `alltrue(toset([true]))`, `alltrue([null])`, `alltrue([false, terraform_data.u.output])`}},
	{"anytrue", []string{`anytrue([true, false])`, `anytrue([])`, `anytrue(["false"])`, `anytrue([false])`, `anytrue([null])`, `anytrue([true, terraform_data.u.output])`}},
	{"chunklist", []string{`chunklist(["a", "b", "c", "d", "e"], 2)`, `chunklist([], 3)`, `chunklist(["a", "b"], 5)`, `chunklist([1, 2, 3], 1)`, `chunklist(["a", "b"], 0)`}},
	{"coalesce", []string{`coalesce("a", "b")`, `coalesce("", "b")`, `coalesce(1, 2)`, `coalesce(null, "x")`, `coalesce("", null, "c")`, `coalesce(1, "two")`, `coalesce(false, true)`, `coalesce(["a"], [])`}},
	{"coalescelist", []string{`coalescelist(["a", "b"], ["c"])`, `coalescelist([], ["c"])`, `coalescelist(tolist([]), tolist(["x"]))`, `coalescelist([1], ["a"])`}},
	{"compact", []string{`compact(["a", "", "b", null, "c"])`, `compact([])`, `compact(["", ""])`, `compact(toset(["a", ""]))`}},
	{"concat", []string{`concat(["a", ""], ["b", "c"])`, `concat([], [])`, `concat([1], ["a"])`, `concat(["a"])`, `concat(tolist(["a"]), ["b"])`}},
	{"contains", []string{`contains(["a", "b"], "a")`, `contains(["a"], "c")`, `contains([1, 2], 2)`, `contains(toset(["a"]), "a")`, `contains([], "a")`, `contains([1], "1")`, `contains([[1]], [1])`}},
	{"distinct", []string{`distinct(["a", "b", "a", "c", "d", "b"])`, `distinct([])`, `distinct([1, "1"])`, `distinct([[1], [1], [2]])`}},
	{"element", []string{`element(["a", "b", "c"], 1)`, `element(["a", "b", "c"], 3)`, `element(["a", "b", "c"], 4)`, `element(tolist(["a", "b", "c"]), -1)`, `element([1, "x"], 1)`, `element(tolist(["a"]), 0)`}},
	{"flatten", []string{`flatten([["a", "b"], [], ["c"]])`, `flatten([[["a", "b"], []], ["c"]])`, `flatten([])`, `flatten([1, [2, [3]]])`, `flatten([toset(["a"]), ["b"]])`}},
	{"index", []string{`index(["a", "b", "c"], "b")`, `index([1, 2], 2)`, `index(["a", "b", "a"], "a")`, `index(tolist(["x"]), "x")`}},
	{"keys", []string{`keys({ a = 1, c = 2, d = 3 })`, `keys({})`, `keys(tomap({ b = "1", a = "2" }))`, `keys({ "é" = 1, "a b" = 2, "Z" = 3 })`}},
	{"length", []string{`length([])`, `length(["a", "b"])`, `length({ a = "b" })`, `length("hello")`, `length("🤔")`, `length("e\u0301")`, `length(toset([1, 1]))`, `length("")`, `length(terraform_data.u.id)`, `length({})`}},
	{"lookup", []string{`lookup({ a = "ay", b = "bee" }, "a", "what?")`, `lookup({ a = "ay" }, "c", "what?")`, `lookup({ a = "ay" }, "a")`, `lookup({ a = 1 }, "b", "x")`}},
	{"matchkeys", []string{
		`matchkeys(["i-123", "i-abc", "i-def"], ["us-west", "us-east", "us-east"], ["us-east"])`,
		`matchkeys([], [], [])`, `matchkeys(["a", "b"], [1, 2], [2, 3])`, `matchkeys(["a"], ["x"], [])`, `matchkeys(["a"], ["b"], [1])`,
	}},
	{"merge", []string{`merge({ a = "b", c = "d" }, { e = "f", c = "z" })`, `merge({ a = "b" }, { a = [1, 2], c = "z" }, { d = 3 })`, `merge()`, `merge({}, null)`, `merge(tomap({ a = "x" }), tomap({ b = "y" }))`, `merge(tomap({ a = "x" }), { b = 1 })`}},
	{"one", []string{`one([])`, `one(["hello"])`, `one(toset([]))`, `one(toset(["x"]))`, `one(tolist([]))`, `one([null])`}},
	{"range", []string{`range(3)`, `range(1, 4)`, `range(1, 8, 2)`, `range(1, 4, 0.5)`, `range(4, 1)`, `range(10, 5, -2)`, `range(0)`, `range(-3)`, `range(1, 1)`}},
	{"reverse", []string{`reverse([1, 2, 3])`, `reverse([])`, `reverse(["a"])`, `reverse(tolist(["a", "b"]))`, `reverse([1, "a"])`}},
	{"setintersection", []string{`setintersection(["a", "b"], ["b", "c"], ["b", "d"])`, `setintersection([], [])`, `setintersection(["a"])`, `setintersection([1, 2], ["2"])`}},
	{"setproduct", []string{`setproduct(["development", "staging"], ["app1", "app2"])`, `setproduct([], ["a"])`, `setproduct(["a"], [1])`, `setproduct(toset(["b", "a"]), toset(["c"]))`}},
	{"setsubtract", []string{`setsubtract(["a", "b", "c"], ["a", "c"])`, `setsubtract([], ["a"])`, `setsubtract(["a"], [])`}},
	{"setunion", []string{`setunion(["a", "b"], ["b", "c"], ["d"])`, `setunion([], [])`, `setunion(["a"])`, `setunion([1], ["a"])`}},
	{"slice", []string{`slice(["a", "b", "c", "d"], 1, 3)`, `slice([], 0, 0)`, `slice(["a"], 1, 1)`, `slice(tolist(["a", "b"]), 0, 1)`}},
	{"sort", []string{`sort(["e", "d", "a", "x"])`, `sort([])`, `sort(["10", "9", "1"])`, `sort([3, 1, 2])`, `sort(["b", "B", "é", "a"])`, `sort(toset(["b", "a"]))`}},
	{"transpose", []string{`transpose({ a = ["1", "2"], b = ["2", "3"] })`, `transpose({})`, `transpose({ a = [] })`}},
	{"values", []string{`values({ a = 3, c = 2, d = 1 })`, `values({})`, `values(tomap({ b = "x", a = "y" }))`, `values({ a = [1], b = "x" })`}},
	{"zipmap", []string{`zipmap(["a", "b"], [1, 2])`, `zipmap([], [])`, `zipmap(["a", "b"], [1, "x"])`, `zipmap(["a", "a"], [1, 2])`, `zipmap(["a"], [[1]])`}},

	// Encoding functions.
	{"base64decode", []string{`base64decode("SGVsbG8gV29ybGQ=")`, `base64decode("")`, `base64decode("4pyT")`}},
	{"base64encode", []string{`base64encode("Hello World")`, `base64encode("")`, `base64encode("✓")`}},
	{"base64gzip", []string{`base64gzip("test")`, `base64gzip("")`}},
	{"csvdecode", []string{`csvdecode("a,b,c\n1,2,3\n4,5,6")`, `csvdecode("a,b\n")`, `csvdecode("a,\"b,c\"\n\"x\"\"\",y")`}},
	{"jsondecode", []string{`jsondecode("{\"hello\": \"world\"}")`, `jsondecode("true")`, `jsondecode("[1, \"a\", null]")`, `jsondecode("1e3")`, `jsondecode("null")`, `jsondecode("{}")`, `jsondecode("12345678901234567890.25")`, `jsondecode("\"\\u00e9\"")`}},
	{"jsonencode", []string{
		`jsonencode({ hello = "world" })`, `jsonencode([1, "a", null, true])`, `jsonencode("<&>")`, `jsonencode(1.5)`,
		`jsonencode(tolist([]))`, `jsonencode(null)`, `jsonencode({ b = 1, a = 2 })`, `jsonencode("✓\u2028")`,
		`jsonencode(toset(["b", "a"]))`, `jsonencode(1e40)`, `jsonencode(terraform_data.u.output)`, `jsonencode({})`,
	}},
	{"textdecodebase64", []string{`textdecodebase64("SABlAGwAbABvACAAVwBvAHIAbABkAA==", "UTF-16LE")`, `textdecodebase64("aGk=", "UTF-8")`, `textdecodebase64("6Q==", "ISO-8859-1")`, `textdecodebase64("", "UTF-16LE")`}},
	{"textencodebase64", []string{`textencodebase64("Hello World", "UTF-16LE")`, `textencodebase64("abc", "UTF-8")`, `textencodebase64("é", "ISO-8859-1")`, `textencodebase64("x", "UTF-16")`, `textencodebase64("€", "windows-1252")`}},
	{"urlencode", []string{`urlencode("Hello World!")`, `urlencode("☃")`, `urlencode("a/b?c=d&e")`, `urlencode("")`, `urlencode("-_.~*'()")`}},
	{"yamldecode", []string{
		`yamldecode("hello: world")`, `yamldecode("- a\n- b")`, `yamldecode("true")`, `yamldecode("1.5")`, `yamldecode("~")`,
		`yamldecode("{a: [1, 2]}")`, `yamldecode("a: &x 1\nb: *x")`, `yamldecode("a: &x {b: 1}\nc:\n  <<: *x\n  d: 2")`, `yamldecode("'yes'")`, `yamldecode("x: |\n  line1\n  line2\n")`,
	}},
	{"yamlencode", []string{
		`yamlencode({ a = "b", c = "d" })`, `yamlencode([1, "a", null])`, `yamlencode("multi\nline")`, `yamlencode({})`,
		`yamlencode({ a = { b = [1, 2] } })`, `yamlencode("true")`, `yamlencode(1.5)`, `yamlencode([])`,
	}},

	// Filesystem functions.
	{"abspath", []string{`abspath(path.root)`, `abspath("hello.txt")`, `abspath("/a/../b")`, `abspath("./x/")`}},
	{"basename", []string{`basename("foo/bar/baz.txt")`, `basename("/")`, `basename("")`, `basename("foo/")`, `basename("ünï/cöde")`}},
	{"dirname", []string{`dirname("foo/bar/baz.txt")`, `dirname("baz")`, `dirname("/")`, `dirname("")`, `dirname("/a/b/")`}},
	{"file", []string{`file("hello.txt")`, `file("${path.module}/unicode.txt")`, `file("files/sub/c.txt")`, `file("empty.txt")`}},
	{"filebase64", []string{`filebase64("bin.dat")`, `filebase64("hello.txt")`, `filebase64("empty.txt")`}},
	{"fileexists", []string{`fileexists("hello.txt")`, `fileexists("missing")`, `fileexists("${path.module}/files/a.txt")`}},
	{"fileset", []string{`fileset(".", "*.txt")`, `fileset(path.module, "files/**")`, `fileset("files", "**/*.txt")`, `fileset(".", "nomatch*")`, `fileset("files", "{a,b}.*")`, `fileset("files", "?.txt")`, `fileset("files", "[ab].*")`}},
	{"pathexpand", []string{`pathexpand("~/x")`, `pathexpand("/abs")`, `pathexpand("rel")`, `pathexpand("~")`, `pathexpand("")`}},
	{"templatefile", []string{
		`templatefile("tmpl.tftpl", { name = "x", items = ["a", "b"] })`, `templatefile("tmpl.tftpl", { name = "ü", items = [] })`,
		`templatefile("plain.tftpl", {})`, `templatefile("json.tftpl", { v = { a = [1, 2] } })`, `templatefile("tmpl.tftpl", { "a-b" = 1, name = "x", items = [] })`,
	}},

	// Date and time functions.
	{"formatdate", []string{
		`formatdate("DD MMM YYYY hh:mm ZZZ", "2018-01-02T23:12:01Z")`, `formatdate("EEEE, DD-MMM-YY hh:mm:ss ZZZ", "2018-01-02T23:12:01Z")`,
		`formatdate("h:mmaa", "2018-01-02T23:12:01-08:00")`, `formatdate("YYYY-MM-DD'T'hh:mm:ssZ", "2018-01-02T23:12:01+05:30")`,
		`formatdate("'quoted''' EEE MMMM D M YY H HH m s AA aa", "2018-01-02T03:04:05Z")`, `formatdate("ZZZZ ZZZZZ Z", "2018-01-02T03:04:05-01:30")`,
		`formatdate("YYYY", "2018-01-02T03:04:05.123456Z")`,
	}},
	{"timeadd", []string{`timeadd("2017-11-22T00:00:00Z", "10m")`, `timeadd("2017-11-22T00:00:00Z", "-1h30m")`, `timeadd("2017-11-22T00:00:00+01:00", "24h")`, `timeadd("2017-11-22T00:00:00Z", "1.5s")`, `timeadd("2017-11-22T00:00:00.5Z", "0s")`, `timeadd("2017-11-22T00:00:00Z", "1us")`}},
	{"timecmp", []string{`timecmp("2017-11-22T00:00:00Z", "2017-11-22T00:00:00Z")`, `timecmp("2017-11-22T01:00:00+01:00", "2017-11-22T00:00:00Z")`, `timecmp("2017-11-22T00:00:00Z", "2017-11-22T00:00:01Z")`, `timecmp("2018-01-01T00:00:00Z", "2017-11-22T00:00:00Z")`}},

	// Hash and crypto functions.
	{"base64sha256", []string{`base64sha256("hello world")`, `base64sha256("")`, `base64sha256("✓")`}},
	{"base64sha512", []string{`base64sha512("hello world")`, `base64sha512("")`}},
	{"filebase64sha256", []string{`filebase64sha256("hello.txt")`, `filebase64sha256("bin.dat")`}},
	{"filebase64sha512", []string{`filebase64sha512("hello.txt")`, `filebase64sha512("empty.txt")`}},
	{"filemd5", []string{`filemd5("hello.txt")`, `filemd5("bin.dat")`}},
	{"filesha1", []string{`filesha1("hello.txt")`, `filesha1("unicode.txt")`}},
	{"filesha256", []string{`filesha256("hello.txt")`, `filesha256("empty.txt")`}},
	{"filesha512", []string{`filesha512("hello.txt")`}},
	{"md5", []string{`md5("hello world")`, `md5("")`, `md5("✓")`}},
	{"rsadecrypt", []string{`rsadecrypt(local.ct, file("key.pem"))`, `rsadecrypt(local.ct8, file("key8.pem"))`}},
	{"sha1", []string{`sha1("hello world")`, `sha1("")`}},
	{"sha256", []string{`sha256("hello world")`, `sha256("✓")`}},
	{"sha512", []string{`sha512("hello world")`}},
	{"uuidv5", []string{`uuidv5("dns", "www.terraform.io")`, `uuidv5("url", "https://www.terraform.io/")`, `uuidv5("oid", "1.2.3")`, `uuidv5("x500", "cn=x")`, `uuidv5("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "x")`, `uuidv5("dns", "")`}},

	// IP network functions.
	{"cidrhost", []string{`cidrhost("10.12.112.0/20", 16)`, `cidrhost("10.12.112.0/20", 268)`, `cidrhost("fd00:fd12:3456:7890:00a2::/72", 34)`, `cidrhost("10.0.0.0/8", -1)`, `cidrhost("10.0.0.0/30", 0)`, `cidrhost("10.0.0.1/8", 1)`}},
	{"cidrnetmask", []string{`cidrnetmask("172.16.0.0/12")`, `cidrnetmask("10.0.0.0/32")`, `cidrnetmask("0.0.0.0/0")`}},
	{"cidrsubnet", []string{`cidrsubnet("172.16.0.0/12", 4, 2)`, `cidrsubnet("10.1.2.0/24", 4, 15)`, `cidrsubnet("fd00:fd12:3456:7890::/56", 16, 162)`, `cidrsubnet("10.0.0.0/8", 0, 0)`, `cidrsubnet("10.1.2.3/24", 1, 1)`, `cidrsubnet("10.0.0.0/24", -1, 0)`, `cidrsubnet("10.0.0.0/8", 8, -1)`}},
	{"cidrsubnets", []string{`cidrsubnets("10.1.0.0/16", 4, 4, 8, 4)`, `cidrsubnets("fd00:fd12:3456:7890::/56", 16, 16, 16, 32)`, `cidrsubnets("10.0.0.0/8")`, `cidrsubnets("10.0.0.0/24", 1, 2, 2)`}},

	// Type conversion functions.
	{"can", []string{`can(local.obj.a)`, `can(local.obj.nope)`, `can(tonumber("x"))`, `can(regex("^a", "abc"))`}},
	{"tobool", []string{`tobool(true)`, `tobool("true")`, `tobool("false")`, `tobool(null)`}},
	{"tolist", []string{`tolist(["a", "b"])`, `tolist(toset(["b", "a"]))`, `tolist(["a", 1])`, `tolist([])`, `tolist([true, "x"])`, `tolist([{ a = 1 }, { a = 2 }])`}},
	{"tomap", []string{`tomap({ a = 1, b = 2 })`, `tomap({ a = "foo", b = true })`, `tomap({})`, `tomap({ a = null, b = "x" })`}},
	{"tonumber", []string{`tonumber(1)`, `tonumber("1")`, `tonumber("-1.5e3")`, `tonumber(null)`, `tonumber("1e2")`}},
	{"toset", []string{`toset(["a", "b", "a"])`, `toset(["c", 1])`, `toset([])`, `toset([3, 1, 2, 10])`, `toset(["b", "a", "B"])`}},
	{"tostring", []string{`tostring("hello")`, `tostring(1)`, `tostring(true)`, `tostring(null)`, `tostring(1.5e10)`, `tostring(0.1)`}},
	{"try", []string{`try(local.obj.nope, "fallback")`, `try(local.obj.a, "fallback")`, `try(tonumber("x"), tostring(null))`, `try(local.obj.nope, local.obj.a, 1)`}},

	// Sensitivity and ephemerality.
	{"sensitive", []string{`sensitive(1)`, `sensitive({ a = 1 })`, `[sensitive("x"), "y"]`, `sensitive(null)`}},
	{"nonsensitive", []string{`nonsensitive(var.secret)`, `nonsensitive(sensitive("x"))`, `nonsensitive("x")`, `nonsensitive(sensitive({ a = 1 }))`}},
	{"issensitive", []string{`issensitive(var.secret)`, `issensitive("x")`, `issensitive(sensitive(null))`, `issensitive([var.secret])`}},
	{"ephemeralasnull", []string{`ephemeralasnull("x")`, `ephemeralasnull({ a = 1 })`, `ephemeralasnull(null)`, `ephemeralasnull(var.secret)`}},

	// The core:: namespace and values from the configuration.
	{"core::", []string{`core::max(1, 5)`, `core::upper("a")`, `core::length(var.list)`, `core::join(",", var.list)`, `core::keys(var.map)`}},
}

// functionConsoleErrors fail; both tools must report the same error.
var functionConsoleErrors = []fnExprs{
	{"signum", []string{`signum(-0.1)`, `signum(1.5)`}},
	{"abs", []string{`abs("x")`, `abs(null)`, `abs()`}},
	{"ceil", []string{`ceil([])`}},
	{"log", []string{`log(-1, 10)`, `log(1, "x")`}},
	{"max", []string{`max()`, `max("a", 1)`, `max([]...)`}},
	{"min", []string{`min()`}},
	{"parseint", []string{`parseint("12", 2)`, `parseint("", 10)`, `parseint("1.5", 10)`, `parseint(10, 10)`, `parseint("10", 1)`}},
	{"pow", []string{`pow(2)`}},
	{"sum", []string{`sum([])`, `sum(["a"])`, `sum([null])`, `sum(1)`, `sum({ a = 1 })`}},
	{"chomp", []string{`chomp([])`}},
	{"endswith", []string{`endswith(null, "x")`}},
	{"format", []string{`format("%d", "x")`, `format("%s")`, `format("%d", 1.5)`, `format("%z", 1)`, `format("%s", [1])`, `format(null)`}},
	{"formatlist", []string{`formatlist("%s-%s", ["a"], ["b", "c"])`, `formatlist("%d", ["a"])`}},
	{"indent", []string{`indent(-1, "a")`, `indent(2, [])`}},
	{"join", []string{`join(",")`, `join(",", "a")`, `join(",", [[1]])`, `join(",", [null])`}},
	{"regex", []string{`regex("[a-z]+", "123")`, `regex("(", "x")`, `regex("(a)(?P<n>b)", "ab")`}},
	{"regexall", []string{`regexall("[", "x")`}},
	{"replace", []string{`replace("a", "/(/", "b")`, `replace(null, "a", "b")`}},
	{"split", []string{`split(",", null)`}},
	{"strrev", []string{`strrev(1, 2)`}},
	{"substr", []string{`substr("hello", 1.5, 1)`, `substr(null, 0, 1)`}},
	{"templatestring", []string{`templatestring("${x}", {})`, `templatestring(local.tpl, {})`, `templatestring(local.bad, {})`, `templatestring(local.tpl, "x")`, `templatestring(local.recurse, {})`, `templatestring(local.readfile, {})`, `templatestring("${local.tpl}", {})`, `templatestring("a${local.tpl}", {})`, `templatestring((local.tpl), {})`, `templatestring(local.n, {})`}},
	{"title", []string{`title(null)`}},
	{"trim", []string{`trim("x")`}},
	{"upper", []string{`upper([])`, `upper({})`}},
	{"alltrue", []string{`alltrue(["x"])`, `alltrue("true")`}},
	{"anytrue", []string{`anytrue([1])`}},
	{"chunklist", []string{`chunklist(["a"], -1)`, `chunklist("a", 1)`}},
	{"coalesce", []string{`coalesce(null, "")`, `coalesce()`, `coalesce([], "a")`, `coalesce(null)`}},
	{"coalescelist", []string{`coalescelist("a")`, `coalescelist()`, `coalescelist([], [])`}},
	{"compact", []string{`compact([[]])`, `compact("a")`}},
	{"concat", []string{`concat("a")`, `concat({ a = 1 })`, `concat()`}},
	{"contains", []string{`contains("abc", "a")`, `contains(null, "a")`, `contains(["a"], null)`}},
	{"distinct", []string{`distinct("a")`}},
	{"element", []string{`element([], 0)`, `element("a", 0)`, `element(["a"], 1.5)`}},
	{"flatten", []string{`flatten("a")`, `flatten({ a = [1] })`}},
	{"index", []string{`index(["a"], "z")`, `index([], "a")`, `index("a", "a")`}},
	{"keys", []string{`keys([])`, `keys("a")`, `keys(null)`}},
	{"length", []string{`length(null)`, `length(1)`, `length(true)`}},
	{"lookup", []string{`lookup({ a = "ay" }, "c")`, `lookup("a", "b", "c")`, `lookup({}, "a", "b", "c")`, `lookup(null, "a", "b")`, `lookup(tomap({ a = [1] }), "a", [])`}},
	{"matchkeys", []string{`matchkeys(["a"], [], [])`, `matchkeys(["a"], ["b"], [[1]])`}},
	{"merge", []string{`merge([1])`, `merge("a")`}},
	{"one", []string{`one(["a", "b"])`, `one("a")`, `one({ a = 1 })`}},
	{"range", []string{`range(1, 4, -1)`, `range(1, 2, 0)`, `range()`, `range(1, 2, 3, 4)`, `range(1025)`, `range("a")`}},
	{"reverse", []string{`reverse("abc")`}},
	{"setintersection", []string{`setintersection()`}},
	{"setproduct", []string{`setproduct()`, `setproduct("a")`, `setproduct(["a"])`}},
	{"setsubtract", []string{`setsubtract("a", ["a"])`}},
	{"setunion", []string{`setunion()`}},
	{"slice", []string{`slice(["a"], 0, 2)`, `slice(["a", "b"], 2, 1)`, `slice(["a"], -1, 1)`}},
	{"sort", []string{`sort([[1]])`, `sort([null])`}},
	{"transpose", []string{`transpose({ a = [null] })`, `transpose([])`}},
	{"values", []string{`values([])`, `values(null)`}},
	{"zipmap", []string{`zipmap(["a"], [])`, `zipmap([null], [1])`, `zipmap("a", [1])`}},
	{"base64decode", []string{`base64decode("x")`, `base64decode("/w==")`}},
	{"base64encode", []string{`base64encode([])`}},
	{"csvdecode", []string{`csvdecode("a,b\n1")`, `csvdecode("a,a\n1,2")`, `csvdecode("a\n\"b")`, `csvdecode("")`}},
	{"jsondecode", []string{`jsondecode("{")`, `jsondecode("")`, `jsondecode("[1,]")`, `jsondecode("{} x")`}},
	{"textdecodebase64", []string{`textdecodebase64("x", "UTF-8")`, `textdecodebase64("aGk=", "NOPE")`, `textdecodebase64("/w==", "UTF-8")`}},
	{"textencodebase64", []string{`textencodebase64("x", "NOPE")`, `textencodebase64("€", "ISO-8859-1")`}},
	{"urlencode", []string{`urlencode([])`}},
	{"yamldecode", []string{`yamldecode("a: b: c")`, `yamldecode("- a\nb: c")`, `yamldecode("a: *x")`, `yamldecode("---\na: 1\n---\nb: 2")`, `yamldecode("")`, `yamldecode("<<: 1")`, `yamldecode("a: &x {b: 1}\nd: &y {e: 1}\nc:\n  <<: [*x, *y]")`}},
	{"abspath", []string{`abspath(null)`}},
	{"basename", []string{`basename([])`}},
	{"file", []string{`file("missing")`, `file("bin.dat")`, `file("files")`, `file(null)`}},
	{"filebase64", []string{`filebase64("missing")`}},
	{"fileexists", []string{`fileexists("files")`}},
	{"fileset", []string{`fileset(".", "[")`, `fileset(".", null)`}},
	{"templatefile", []string{`templatefile("tmpl.tftpl", {})`, `templatefile("missing.tftpl", {})`, `templatefile("tmpl.tftpl", "x")`, `templatefile("recurse.tftpl", {})`, `templatefile("tmpl.tftpl", { name = [], items = [] })`}},
	{"formatdate", []string{`formatdate("YYYY", "nope")`, `formatdate("YYYY", "2018-01-02")`, `formatdate("'unterminated", "2018-01-02T03:04:05Z")`, `formatdate("YYYY", "2018-13-02T03:04:05Z")`, `formatdate("A", "2018-01-02T03:04:05Z")`}},
	{"plantimestamp", []string{`plantimestamp()`}},
	{"timeadd", []string{`timeadd("x", "1h")`, `timeadd("2017-11-22T00:00:00Z", "1d")`, `timeadd("2017-11-22T00:00:00Z", "")`}},
	{"timecmp", []string{`timecmp("x", "2017-11-22T00:00:00Z")`, `timecmp("2017-11-22T00:00:00Z", "2017-11-22")`}},
	{"timestamp", []string{`timestamp(1)`}},
	{"bcrypt", []string{`bcrypt("x", 32)`, `bcrypt()`}},
	{"filemd5", []string{`filemd5("missing")`, `filesha1("~nobody/x")`}},
	{"filesha256", []string{`filesha256("files")`}},
	{"md5", []string{`md5([])`}},
	{"rsadecrypt", []string{`rsadecrypt(local.ct, "not a key")`, `rsadecrypt("!!", file("key.pem"))`, `rsadecrypt("aGk=", file("key.pem"))`}},
	{"uuid", []string{`uuid("x")`}},
	{"uuidv5", []string{`uuidv5("bad", "x")`, `uuidv5("dns")`}},
	{"cidrhost", []string{`cidrhost("10.0.0.0/30", 5)`, `cidrhost("nope", 1)`, `cidrhost("10.0.0.0/8", 1.5)`, `cidrhost("10.0.0.0/30", -5)`}},
	{"cidrnetmask", []string{`cidrnetmask("fd00::/64")`, `cidrnetmask("10.0.0.0")`}},
	{"cidrsubnet", []string{`cidrsubnet("10.0.0.0/30", 4, 0)`, `cidrsubnet("10.0.0.0/24", 2, 4)`, `cidrsubnet("x", 1, 0)`}},
	{"cidrsubnets", []string{`cidrsubnets("10.0.0.0/30", 4)`, `cidrsubnets("10.0.0.0/24", 0)`, `cidrsubnets("x", 1)`, `cidrsubnets("10.0.0.0/24", 1, 1, 1)`}},
	{"can", []string{`can()`, `can(local.nope)`}},
	{"tobool", []string{`tobool("yes")`, `tobool(1)`, `tobool([])`}},
	{"tolist", []string{`tolist(["a", [1]])`, `tolist("a")`, `tolist({ a = 1 })`}},
	{"tomap", []string{`tomap({ a = [1], b = "x" })`, `tomap(["a"])`}},
	{"tonumber", []string{`tonumber("no")`, `tonumber(true)`, `tonumber("")`, `tonumber("0x10")`, `tonumber(" 1")`}},
	{"toset", []string{`toset(["a", [1]])`, `toset("a")`}},
	{"tostring", []string{`tostring([])`, `tostring({})`}},
	{"try", []string{`try(local.obj.nope)`, `try()`, `try(local.nope, 1)`}},
	{"sensitive", []string{`sensitive()`}},
	{"nonsensitive", []string{`nonsensitive()`}},
	{"issensitive", []string{`issensitive(1, 2)`}},
	{"ephemeralasnull", []string{`ephemeralasnull()`}},
	// An unknown name far from every function: HCL suggests the nearest
	// one, and picks among equally near ones in no fixed order.
	{"core::", []string{`qqqqqq(1)`, `core::upper(1, 2)`}},
}

// functionConsoleTopLevel are printed on their own: how the console prints
// a top-level value differs from how it prints the same value nested.
var functionConsoleTopLevel = []string{
	`"a\nb"`, `"a\nb\n"`, `yamlencode({ a = 1, b = [2] })`, `sensitive("x")`, `sensitive({ a = 1 })`, `{ a = sensitive(1), b = [sensitive("q")] }`,
	`var.secret`, `{ a = var.secret }`, `jsonencode(var.secret)`, `indent(2, "a\nb")`, `templatefile("tmpl.tftpl", { name = "x", items = ["a"] })`,
	`tolist([])`, `toset([])`, `tomap({})`, `null`, `tostring(null)`, `terraform_data.u.output`, `upper(terraform_data.u.id)`,
	`file("unicode.txt")`, `"EOT\nx"`, `"tab\there"`, `"${"$"}{x}"`, `"%%{x}"`, `1e40`, `-0.5`, `12345678901234567890`,
}

// functionConsoleShapes give a different result at every call: their
// result must have the same shape in both tools.
var functionConsoleShapes = []struct {
	fn, expr string
	shape    *regexp.Regexp
}{
	{"uuid", `uuid()`, regexp.MustCompile(`^"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"$`)},
	{"uuid", `length(uuid())`, regexp.MustCompile(`^36$`)},
	{"timestamp", `timestamp()`, regexp.MustCompile(`^"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"$`)},
	{"timestamp", `formatdate("YYYY", timestamp()) == formatdate("YYYY", timeadd(timestamp(), "0s"))`, regexp.MustCompile(`^true$`)},
	{"bcrypt", `bcrypt("hello")`, regexp.MustCompile(`^"\$2a\$10\$[./A-Za-z0-9]{53}"$`)},
	{"bcrypt", `bcrypt("hello", 3)`, regexp.MustCompile(`^"\$2a\$10\$[./A-Za-z0-9]{53}"$`)},
	{"bcrypt", `bcrypt("hello", 5)`, regexp.MustCompile(`^"\$2a\$05\$[./A-Za-z0-9]{53}"$`)},
}

// functionConsoleDir writes the configuration the expressions refer to.
func functionConsoleDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	// A fixed key and messages encrypted with it (PKCS #1 v1.5, as
	// rsadecrypt expects): the same input on every run, so that
	// terraform's runs on it can be recorded.
	fixture := func(name string) string {
		return string(readFile(t, filepath.Join("testdata", "rsadecrypt", name)))
	}
	writeFile(t, filepath.Join(dir, "key.pem"), fixture("key.pem"))
	writeFile(t, filepath.Join(dir, "key8.pem"), fixture("key8.pem"))
	writeFile(t, filepath.Join(dir, "main.tf"), fmt.Sprintf(`variable "n" {
  default = -3
}
variable "secret" {
  default   = "hunter2"
  sensitive = true
}
variable "list" {
  default = ["a", "b"]
}
variable "map" {
  type    = map(string)
  default = { b = "2", a = "1" }
}
locals {
  tpl      = "Hello, $${name}!%%%%{ for x in items }\n- $${x}%%%%{ endfor }"
  plain    = "no interpolation"
  bad      = "$${"
  recurse  = "$${templatestring(\"x\", {})}"
  readfile = "$${file(\"hello.txt\")}"
  n        = 1
  list     = ["$${1 + 1}"]
  obj      = { a = "ay" }
  ct       = %q
  ct8      = %q
}
resource "terraform_data" "u" {
  input = "a"
}
`, fixture("hello.b64"), fixture("unicode.b64")))
	writeFile(t, filepath.Join(dir, "hello.txt"), "Hello World\n")
	writeFile(t, filepath.Join(dir, "unicode.txt"), "héllo wörld ✓\nzweite Zeile\n")
	writeFile(t, filepath.Join(dir, "empty.txt"), "")
	writeFile(t, filepath.Join(dir, "bin.dat"), "\xff\x00\x01binary")
	writeFile(t, filepath.Join(dir, "tmpl.tftpl"), "Hello, ${name}!\n%{ for x in items ~}\n- ${x}\n%{ endfor ~}\n")
	writeFile(t, filepath.Join(dir, "plain.tftpl"), "just text\n")
	writeFile(t, filepath.Join(dir, "json.tftpl"), "${jsonencode(v)}")
	writeFile(t, filepath.Join(dir, "recurse.tftpl"), "${templatefile(\"plain.tftpl\", {})}")
	for _, f := range []string{"files/a.txt", "files/b.json", "files/sub/c.txt", "files/sub/deeper/d.txt"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, f), f+"\n")
	}
	return dir
}

func TestE2EFunctionsConsole(t *testing.T) {
	t.Parallel() // its own directories; strata runs in this process, terraform as a process
	tf := terraformBin(t)
	dir := functionConsoleDir(t)
	if r := runIn(t, dir, "", tf, "init", "-no-color"); r.code != 0 {
		t.Fatalf("terraform init: %s", r.stderr)
	}

	t.Run("coverage", func(t *testing.T) {
		tested := map[string]bool{}
		for _, g := range functionConsoleValues {
			tested[g.fn] = true
		}
		for _, s := range functionConsoleShapes {
			tested[s.fn] = true
		}
		tested["plantimestamp"] = true // not in terraform console's scope
		for name := range funcs.Functions(".", false) {
			if !strings.HasPrefix(name, funcs.CoreNamespace) && !tested[name] {
				t.Errorf("no console comparison for %s", name)
			}
		}
	})

	t.Run("values", func(t *testing.T) {
		var exprs []string
		for _, g := range functionConsoleValues {
			exprs = append(exprs, g.exprs...)
		}
		// terraform console reads lines of up to 64 KiB: a few runs.
		const chunk = 200
		for start := 0; start < len(exprs); start += chunk {
			end := min(start+chunk, len(exprs))
			compareConsoleChunk(t, dir, tf, exprs[start:end], start)
		}
	})

	t.Run("top level", func(t *testing.T) {
		for _, expr := range functionConsoleTopLevel {
			s, w := runInProcess(t, dir, nil, expr+"\n", "console"), runIn(t, dir, expr+"\n", tf, "console")
			if s.code != w.code || s.stdout != w.stdout {
				t.Errorf("%s:\nstrata (exit %d):\n%s%s\nterraform (exit %d):\n%s%s", expr, s.code, s.stdout, s.stderr, w.code, w.stdout, w.stderr)
			}
		}
	})

	t.Run("errors", func(t *testing.T) {
		var exprs []string
		for _, g := range functionConsoleErrors {
			exprs = append(exprs, g.exprs...)
		}
		sort.Strings(exprs)
		compareConsoleErrors(t, dir, tf, exprs)
	})

	t.Run("shapes", func(t *testing.T) {
		// Each value is a string or a number, printed nested as at the top
		// level: one object holds them all, as for the values.
		keys := make([]string, len(functionConsoleShapes))
		attrs := make([]string, len(functionConsoleShapes))
		for i, c := range functionConsoleShapes {
			keys[i] = fmt.Sprintf("c%04d", i)
			attrs[i] = keys[i] + " = " + c.expr
		}
		line := "{ " + strings.Join(attrs, ", ") + " }\n"
		for _, bin := range []string{strataBin, tf} {
			r := runIn(t, dir, line, bin, "console")
			if r.code != 0 {
				t.Errorf("%s: exit %d:\n%s%s", filepath.Base(bin), r.code, r.stdout, r.stderr)
				continue
			}
			got := splitConsoleObject(r.stdout)
			if len(got) != len(keys) {
				t.Errorf("%s printed %d values for %d expressions:\n%s", filepath.Base(bin), len(got), len(keys), r.stdout)
			}
			for i, c := range functionConsoleShapes {
				v := got[keys[i]]
				if !c.shape.MatchString(v) {
					t.Errorf("%s: %s printed %q, want %s", c.expr, filepath.Base(bin), v, c.shape)
				}
				if c.fn == "bcrypt" {
					hash := strings.Trim(v, `"`)
					if err := bcrypt.CompareHashAndPassword([]byte(hash), []byte("hello")); err != nil {
						t.Errorf("%s: %s: %q does not match the password: %v", c.expr, filepath.Base(bin), hash, err)
					}
				}
			}
		}
	})
}

// compareConsoleErrors compares the errors of exprs in both tools. Both
// stop at the first line that fails, but report every error of one line:
// the expressions are evaluated as the attributes of one object, each
// followed by a sentinel attribute whose error names it (sentinel-NNNN),
// and the diagnostics between two sentinels are those of the expression
// between them. An expression whose error stops the evaluation of the
// others (an undeclared reference is refused before anything is
// evaluated) leaves sentinels out: that batch is halved until the
// expression runs alone, as each expression once did. An expression whose
// errors differ in the batch is compared alone too, and must also agree
// nested.
func compareConsoleErrors(t *testing.T, dir, tf string, exprs []string) {
	t.Helper()
	if len(exprs) == 1 {
		compareConsoleError(t, dir, tf, exprs[0])
		return
	}
	attrs := make([]string, 0, 2*len(exprs))
	for i, e := range exprs {
		attrs = append(attrs, fmt.Sprintf("c%04d = %s", i, e), fmt.Sprintf("s%04d = tonumber(%q)", i, consoleSentinel(i)))
	}
	line := "{ " + strings.Join(attrs, ", ") + " }\n"
	s, w := runInProcess(t, dir, nil, line, "console", "-no-color"), runIn(t, dir, line, tf, "console", "-no-color")
	ss, sok := splitConsoleErrors(s.stderr, len(exprs))
	ws, wok := splitConsoleErrors(w.stderr, len(exprs))
	if !wok || !sok || s.code != w.code {
		half := len(exprs) / 2
		compareConsoleErrors(t, dir, tf, exprs[:half])
		compareConsoleErrors(t, dir, tf, exprs[half:])
		return
	}
	for i, e := range exprs {
		sSum, sDet := diagnosticText(ss[i])
		wSum, wDet := diagnosticText(ws[i])
		if wSum != "" && sSum == wSum && sameErrorDetail(sDet, wDet) {
			continue
		}
		if compareConsoleError(t, dir, tf, e) && wSum != "" {
			t.Errorf("%s, nested in an object:\nstrata:    %s: %s\nterraform: %s: %s", e, sSum, sDet, wSum, wDet)
		}
	}
}

// consoleSentinel is the text the error of sentinel i names.
func consoleSentinel(i int) string {
	return fmt.Sprintf("sentinel-%04d", i)
}

// splitConsoleErrors splits a console's diagnostics output into those
// before each of n sentinels (consoleSentinel); ok is false unless every
// sentinel's error is there, once and in order, and nothing follows the
// last.
func splitConsoleErrors(stderr string, n int) (parts []string, ok bool) {
	var diags []string
	for _, l := range strings.SplitAfter(stderr, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "Error: ") || strings.HasPrefix(t, "Warning: ") || len(diags) == 0 {
			diags = append(diags, "")
		}
		diags[len(diags)-1] += l
	}
	var cur strings.Builder
	for _, d := range diags {
		if i := len(parts); i < n && strings.Contains(d, `"`+consoleSentinel(i)+`"`) {
			parts = append(parts, cur.String())
			cur.Reset()
			continue
		}
		if strings.Contains(d, "sentinel-") {
			return nil, false
		}
		cur.WriteString(d)
	}
	return parts, len(parts) == n && strings.TrimSpace(cur.String()) == ""
}

// compareConsoleError evaluates expr alone in both tools and compares
// their first errors; it reports whether they agree.
func compareConsoleError(t *testing.T, dir, tf, expr string) bool {
	t.Helper()
	s, w := runInProcess(t, dir, nil, expr+"\n", "console", "-no-color"), runIn(t, dir, expr+"\n", tf, "console", "-no-color")
	if w.code == 0 {
		t.Errorf("%s: terraform succeeds with %s; move it to the values", expr, strings.TrimSpace(w.stdout))
		return false
	}
	if s.code != w.code {
		t.Errorf("%s: strata exits %d (%s%s), terraform %d", expr, s.code, s.stdout, s.stderr, w.code)
		return false
	}
	ss, sd := diagnosticText(s.stderr)
	ws, wd := diagnosticText(w.stderr)
	if ss != ws || !sameErrorDetail(sd, wd) {
		t.Errorf("%s:\nstrata:    %s: %s\nterraform: %s: %s", expr, ss, sd, ws, wd)
		return false
	}
	return true
}

// compareConsoleChunk evaluates exprs as the attributes of one object in
// both tools and compares the value printed for each. first numbers the
// attributes, so that a failure names the expression.
func compareConsoleChunk(t *testing.T, dir, tf string, exprs []string, first int) {
	t.Helper()
	keys := make([]string, len(exprs))
	attrs := make([]string, len(exprs))
	for i, e := range exprs {
		keys[i] = fmt.Sprintf("c%04d", first+i)
		attrs[i] = keys[i] + " = " + e
	}
	line := "{ " + strings.Join(attrs, ", ") + " }\n"
	s, w := runInProcess(t, dir, nil, line, "console", "-no-color"), runIn(t, dir, line, tf, "console", "-no-color")
	if w.code != 0 || s.code != 0 {
		// Find the expressions that fail, one at a time.
		for _, e := range exprs {
			s1, w1 := runInProcess(t, dir, nil, e+"\n", "console", "-no-color"), runIn(t, dir, e+"\n", tf, "console", "-no-color")
			if w1.code != 0 {
				t.Errorf("%s: fails in terraform: %s", e, w1.stderr)
			} else if s1.code != 0 {
				t.Errorf("%s: fails in strata: %s\nterraform prints %s", e, s1.stderr, w1.stdout)
			}
		}
		if !t.Failed() {
			t.Fatalf("the chunk fails as a whole:\nstrata: %s\nterraform: %s", s.stderr, w.stderr)
		}
		return
	}
	got, want := splitConsoleObject(s.stdout), splitConsoleObject(w.stdout)
	for i, k := range keys {
		if got[k] != want[k] {
			t.Errorf("%s:\nstrata:\n%s\nterraform:\n%s", exprs[i], got[k], want[k])
		}
	}
	if len(got) != len(keys) || len(want) != len(keys) {
		t.Errorf("printed %d values (strata) and %d (terraform) for %d expressions:\n%s", len(got), len(want), len(keys), s.stdout)
	}
}

var consoleAttrRe = regexp.MustCompile(`(?m)^  "(c\d{4})" = `)

// splitConsoleObject splits a printed object into the text of each of its
// attributes.
func splitConsoleObject(out string) map[string]string {
	locs := consoleAttrRe.FindAllStringSubmatchIndex(out, -1)
	m := make(map[string]string, len(locs))
	for i, loc := range locs {
		end := strings.LastIndex(out, "\n}")
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		m[out[loc[2]:loc[3]]] = strings.TrimRight(out[loc[1]:end], "\n")
	}
	return m
}

// diagnosticText returns the summary of the first error in a console's
// diagnostics output, and its detail with lines joined by spaces (the two
// tools wrap long lines alike, but the comparison need not depend on it).
// The source snippet is left out: terraform console has none to show.
func diagnosticText(stderr string) (summary, detail string) {
	lines := strings.Split(stderr, "\n")
	i := 0
	for ; i < len(lines); i++ {
		if s, ok := strings.CutPrefix(strings.TrimSpace(lines[i]), "Error: "); ok {
			summary = s
			break
		}
	}
	var body []string
	inSnippet := false
	for i++; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if strings.HasPrefix(l, "Error: ") || strings.HasPrefix(l, "Warning: ") {
			break
		}
		if strings.HasPrefix(l, "on <console-input>") {
			inSnippet = true
			continue
		}
		if inSnippet {
			if l == "" {
				inSnippet = false
			}
			continue
		}
		if l != "" {
			body = append(body, l)
		}
	}
	return summary, strings.Join(body, " ")
}

// mismatchWording matches go-cty 1.19's wording of an argument of the wrong
// type ("string required, but have tuple"), which says more than that of
// go-cty 1.16, used by Terraform 1.11 ("string required"); and its name for
// a collection of any element type.
var mismatchWording = regexp.MustCompile(`(required), but have [a-z ]+|(of) dynamic`)

// sameErrorDetail reports whether two error details say the same, allowing
// for the documented differences: the wording of type mismatches, and the
// stack trace of a panic in a function (which both tools report as an
// error, not a crash).
func sameErrorDetail(strata, terraform string) bool {
	if strata == terraform {
		return true
	}
	const panicked = "panic in function implementation:"
	if i := strings.Index(terraform, panicked); i >= 0 {
		return strings.HasPrefix(strata, terraform[:i+len(panicked)])
	}
	strata = mismatchWording.ReplaceAllStringFunc(strata, func(m string) string {
		if strings.HasPrefix(m, "of ") {
			return "of any single type"
		}
		return "required"
	})
	return strata == terraform
}
